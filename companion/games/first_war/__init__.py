"""The First War (2 players): the hidden map, the seven phases and their arithmetic, the
population die read by the camera (docs/first-war.md). The device keeps the map and the
pieces, checks every move, resolves each conflict and counts food, research and growth."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from companion.engine.game import (
    DiceSpec,
    GameBase,
    Option,
    Outcome,
    ScoreLine,
    ScoreRow,
    ToAct,
    register,
)
from companion.games.first_war import jsonform, pages, positionfile, rules, views
from companion.games.first_war.state import ACTIONS, Finish, State


class FirstWar(GameBase):
    name = "first-war"
    title = "The First War"
    min_players = 2
    max_players = 2
    options = (
        Option(
            "position",
            "Start from a position",
            "data",
            help="A position file (docs/first-war.md): play on from it.",
        ),
    )
    pages = pages.bp
    actions: ClassVar[dict[str, type]] = {c.type: c for c in ACTIONS}

    def setup(self, players: int, options: Mapping[str, Any]) -> State:
        if options.get("position") is not None:
            return positionfile.start(options["position"])
        return rules.setup(players, options)

    def apply(self, state: State, action: Any) -> State:
        return rules.apply(state, action)

    def legal_actions(self, state: State, seat: int | None) -> list:
        return views.legal_actions(state, seat)

    def dice(self, state: State) -> DiceSpec | None:
        return rules.dice(state)

    def to_act(self, state: State) -> ToAct:
        if state.ended:
            return ToAct()
        who = rules.actor(state)
        if who is None:
            return ToAct((state.seat,), table=True)  # the population die
        return ToAct((who,))

    def finish_action(self, state: State) -> Finish | None:
        return None if state.ended else Finish()

    def outcome(self, state: State) -> Outcome | None:
        if not state.ended:
            return None
        winners = () if state.winner is None else (state.winner,)
        if state.winner is None:
            winners = (0, 1)  # a draw: shared
        return Outcome(state.ended, winners, tuple(self._total(state, s) for s in (0, 1)))

    def _total(self, state: State, seat: int) -> int:
        if not state.ended:
            return 0
        return 1 if state.winner in (seat, None) else 0

    def round_of(self, state: State) -> int | None:
        return state.turn

    def describe(self, action: Any) -> str:
        return views.describe(action)

    def score_rows(self, state: State) -> list[ScoreRow]:
        """A war has a winner, not points: 1 for the winner (both, in a draw), else 0; the
        pages show each side's population, food, research and cards beside it."""
        return [
            ScoreRow(
                self._total(state, s), (ScoreLine("won", "Victory", self._total(state, s)),), seat=s
            )
            for s in (0, 1)
        ]

    def player_view(self, state: State, seat: int | None) -> dict:
        return views.player_view(state, seat)

    def state_to_json(self, state: State) -> dict:
        return jsonform.to_json(state)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return jsonform.from_json(data)

    def board_file(self, state: State, seat: int) -> dict:
        return positionfile.write(state)

    def score_file(self, data: Any) -> dict:
        return positionfile.score(data)


GAME = register(FirstWar())

__all__ = ["GAME", "FirstWar"]

"""Small Islands (1 to 4 players, and solo against Alexis): secret objectives on each
phone, the reward arithmetic, the solo opponent run by the device
(docs/small-islands.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from companion.engine.game import (
    GameBase,
    Option,
    Outcome,
    ScoreLine,
    ScoreRow,
    ToAct,
    register,
)
from companion.games.small_islands import jsonform, pages, rules, scorefile, views
from companion.games.small_islands.state import ACTIONS, ALEXIS, Finish, State

LINES = (("rewards", "Rewards"), ("ships", "Ships"), ("discovery", "Discovery tokens"))


class SmallIslands(GameBase):
    name = "small-islands"
    title = "Small Islands"
    min_players = 1
    max_players = 4
    hidden_information = True  # each player's objective is their own
    options = (
        Option(
            "advanced",
            "Advanced mode",
            "bool",
            False,
            help="Missions and rewards drawn separately; temples draw Discovery tokens.",
        ),
        Option(
            "alexis",
            "Alexis card (solo)",
            "choice",
            2,
            players=(1, 1),
            choices=((1, "1: easy"), (2, "2"), (3, "3: hard")),
        ),
    )
    pages = pages.bp
    actions: ClassVar[dict[str, type]] = {c.type: c for c in ACTIONS}

    def setup(self, players: int, options: Mapping[str, Any]) -> State:
        return rules.setup(players, options)

    def apply(self, state: State, action: Any) -> State:
        return rules.apply(state, action)

    def legal_actions(self, state: State, seat: int | None) -> list:
        return views.legal_actions(state, seat)

    def to_act(self, state: State) -> ToAct:
        if state.ended:
            return ToAct()
        p = state.phase
        stack = state.alexis is not None and not state.deck  # Alexis' stack to make
        if p == "explore":
            who = views.whose(state)
            return ToAct(() if who is None else (who,), table=who is None or stack)
        seats = tuple(s for s in range(state.players) if s not in state.ready)
        alexis = state.alexis is not None and (
            (p == "reward" and not state.alexis_reward)
            or (p == "ships" and not any(e.key == "alexis_end" for e in state.ledger))
        )
        return ToAct(seats, table=alexis or stack)

    def finish_action(self, state: State) -> Finish | None:
        return None if state.ended else Finish()

    def outcome(self, state: State) -> Outcome | None:
        if not state.ended:
            return None
        totals = tuple(state.total(s) for s in range(state.players))
        best = max(totals)
        winners = tuple(s for s, t in enumerate(totals) if t == best)
        if state.alexis is not None and state.total(ALEXIS) >= best:
            winners = ()  # you win by beating Alexis' total
        return Outcome(state.ended, winners, totals)

    def round_of(self, state: State) -> int | None:
        return state.round

    def describe(self, action: Any) -> str:
        return views.describe(action)

    def score_rows(self, state: State) -> list[ScoreRow]:
        def lines(seat: int) -> tuple[ScoreLine, ...]:
            keys = (
                LINES
                if seat != ALEXIS
                else (("alexis", "During the game"), ("ships", "Ships"), ("alexis_end", "His card"))
            )
            return tuple(
                ScoreLine(
                    k, label, sum(e.points for e in state.ledger if e.seat == seat and e.key == k)
                )
                for k, label in keys
            )

        rows = [ScoreRow(state.total(s), lines(s), seat=s) for s in range(state.players)]
        if state.alexis is not None:
            rows.append(ScoreRow(state.total(ALEXIS), lines(ALEXIS), name="Alexis"))
        return rows

    def player_view(self, state: State, seat: int | None) -> dict:
        return views.player_view(state, seat)

    def action_view(self, action: Any, seat: int | None) -> dict | None:
        return views.action_view(action, seat)

    def state_to_json(self, state: State) -> dict:
        return jsonform.to_json(state)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return jsonform.from_json(data)

    def score_file(self, data: Any) -> dict:
        return scorefile.score(data)


GAME = register(SmallIslands())

__all__ = ["GAME", "SmallIslands"]

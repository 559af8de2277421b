"""First Giants (2 to 5 players): dig sites, studies and museums on the phones, the sets'
legality checked, Set and News tokens counted, the end that nobody miscounts
(docs/first-giants.md)."""

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
from companion.games.first_giants import jsonform, museumfile, pages, rules, views
from companion.games.first_giants.state import ACTIONS, Finish, State

NEWS_CHOICES = ((3, "3 points"), (5, "5 points"), (0, "none"))
OPTIONS = (
    Option(
        "families",
        "Families",
        "text",
        ", ".join(rules.DEFAULT_FAMILIES),
        maximum=200,
        help="The Families on your cards, comma-separated (2 to 8).",
    ),
    Option(
        "family_news",
        "Family News tokens",
        "choice",
        3,
        choices=NEWS_CHOICES,
        help="A News token for each Family's sets, and its points.",
    ),
    Option(
        "size_news",
        "Size News tokens",
        "choice",
        5,
        choices=NEWS_CHOICES,
        help="A News token for each Size's sets (small, medium, large), and its points.",
    ),
    Option(
        "deck",
        "Deck list",
        "data",
        help="Your cards by name, with what each gives when taken (docs/first-giants.md).",
    ),
)


class FirstGiants(GameBase):
    name = "first-giants"
    title = "First Giants"
    min_players = 2
    max_players = 5
    options = OPTIONS
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
        if state.phase == "deal":
            return ToAct(table=True)
        return ToAct((state.seat,))

    def finish_action(self, state: State) -> Finish | None:
        return None if state.ended else Finish()

    def outcome(self, state: State) -> Outcome | None:
        if not state.ended:
            return None
        totals = tuple(views.total(state, p) for p in range(state.players))
        best = max(totals)
        return Outcome(state.ended, tuple(p for p, t in enumerate(totals) if t == best), totals)

    def round_of(self, state: State) -> int | None:
        return state.turns // state.players + 1 if state.phase != "deal" else None

    def describe(self, action: Any) -> str:
        return views.describe(action)

    def score_rows(self, state: State) -> list[ScoreRow]:
        """Each player's Set tokens, News tokens and points from effects."""
        return [
            ScoreRow(
                views.total(state, p),
                (
                    ScoreLine("set_tokens", "Set tokens", views.set_token_points(state, p)),
                    ScoreLine("news", "News tokens", views.news_points(state, p)),
                    ScoreLine("points", "Points from effects", state.points(p)),
                ),
                seat=p,
            )
            for p in range(state.players)
        ]

    def player_view(self, state: State, seat: int | None) -> dict:
        return views.player_view(state, seat)

    def state_to_json(self, state: State) -> dict:
        return jsonform.to_json(state)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return jsonform.from_json(data)

    def board_file(self, state: State, seat: int) -> dict:
        """Every player's museum (the file scores them all)."""
        return museumfile.write(state)

    def score_file(self, data: Any) -> dict:
        return museumfile.score(data)


GAME = register(FirstGiants())

__all__ = ["GAME", "FirstGiants"]

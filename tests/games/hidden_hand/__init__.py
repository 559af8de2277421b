"""A game with a hidden hand, for the tests alone: the table deals each player secret cards,
the players play them face up one at a time. The server must never send one phone another
player's cards, in a view of the state or of the log."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from flask import Blueprint

from companion.engine.game import GameBase, Outcome, ScoreLine, ScoreRow, action_to_json
from companion.errors import IllegalAction


@dataclass(frozen=True)
class Deal:
    """The table deals ``player`` their secret ``cards`` (a chance action)."""

    type: ClassVar[str] = "deal"
    player: int
    cards: tuple[str, ...]
    seat: None = None


@dataclass(frozen=True)
class Play:
    """``seat`` plays ``card`` from their hand, face up."""

    type: ClassVar[str] = "play"
    seat: int
    card: str


@dataclass(frozen=True)
class Finish:
    type: ClassVar[str] = "finish"
    seat: None = None


@dataclass(frozen=True)
class State:
    players: int
    hands: tuple[tuple[str, ...], ...]
    played: tuple[tuple[int, str], ...] = ()
    ended: str | None = None


class HiddenHand(GameBase):
    name = "hidden-hand"
    title = "Hidden Hand"
    min_players = 2
    max_players = 4
    hidden_information = True
    actions: ClassVar[dict[str, type]] = {c.type: c for c in (Deal, Play, Finish)}
    pages = Blueprint(
        "hidden_hand",
        __name__,
        template_folder="templates",
        static_folder="static",
        static_url_path="/static",
        url_prefix="/games/hidden-hand",
    )

    def setup(self, players: int, options: Mapping[str, Any]) -> State:
        return State(players, tuple(() for _ in range(players)))

    def apply(self, state: State, action: Any) -> State:
        if state.ended:
            raise IllegalAction("the game is over", code="action/game_over")
        if isinstance(action, Deal):
            hands = list(state.hands)
            hands[action.player] = hands[action.player] + tuple(action.cards)
            return replace(state, hands=tuple(hands))
        if isinstance(action, Play):
            if action.card not in state.hands[action.seat]:
                raise IllegalAction(f"{action.card!r} is not in your hand", code="action/no_card")
            hands = list(state.hands)
            hand = list(hands[action.seat])
            hand.remove(action.card)
            hands[action.seat] = tuple(hand)
            state = replace(
                state, hands=tuple(hands), played=(*state.played, (action.seat, action.card))
            )
            return replace(state, ended="all cards played") if not any(state.hands) else state
        if isinstance(action, Finish):
            return replace(state, ended="ended by the host")
        raise IllegalAction(f"no action {action!r}", code="action/unknown")

    def legal_actions(self, state: State, seat: int | None) -> list:
        if state.ended:
            return []
        if seat is None:
            return [
                Finish(),
                *(Deal(p, (f"card-{len(state.played)}",)) for p in range(state.players)),
            ]
        return [Play(seat, card) for card in state.hands[seat]]

    def finish_action(self, state: State) -> Finish:
        return Finish()

    def outcome(self, state: State) -> Outcome | None:
        if not state.ended:
            return None
        totals = tuple(sum(1 for s, _ in state.played if s == p) for p in range(state.players))
        return Outcome(
            state.ended, tuple(p for p, t in enumerate(totals) if t == max(totals)), totals
        )

    def describe(self, action: Any) -> str:
        if isinstance(action, Deal):
            return f"Dealt {len(action.cards)} card(s) to player {action.player + 1}."
        if isinstance(action, Play):
            return f"Played {action.card}."  # played face up: public
        return "Ended the game."

    def score_rows(self, state: State) -> list[ScoreRow]:
        """A row a seat, and one for the dealer, a virtual player: the cards still held."""
        rows = []
        for p in range(state.players):
            n = sum(1 for s, _ in state.played if s == p)
            rows.append(ScoreRow(n, (ScoreLine("played", "Cards played", n),), seat=p))
        held = sum(len(h) for h in state.hands)
        rows.append(ScoreRow(held, (ScoreLine("held", "Cards held", held),), name="The dealer"))
        return rows

    def player_view(self, state: State, seat: int | None) -> dict:
        """Everyone sees the cards played and how many each holds; a seat, its own hand."""
        return {
            "held": [len(h) for h in state.hands],
            "played": [list(p) for p in state.played],
            "hand": None if seat is None else list(state.hands[seat]),
            "ended": state.ended,
        }

    def action_view(self, action: Any, seat: int | None) -> dict | None:
        """A deal's cards are seen by the player dealt them alone."""
        data = action_to_json(action)
        if isinstance(action, Deal) and seat != action.player:
            data["cards"] = None
        return data

    def state_to_json(self, state: State) -> dict:
        return {
            "players": state.players,
            "hands": [list(h) for h in state.hands],
            "played": [list(p) for p in state.played],
            "ended": state.ended,
        }

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return State(
            data["players"],
            tuple(tuple(h) for h in data["hands"]),
            tuple((s, c) for s, c in data["played"]),
            data["ended"],
        )


GAME = HiddenHand()

"""The score pad's setup and its pure reducer ``apply(state, action)``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.engine.game import DiceRolled, DiceSpec
from companion.errors import IllegalAction
from companion.games.score_pad.state import (
    CATEGORY_LENGTH,
    MAX_CATEGORIES,
    POINTS_LIMIT,
    EnterPoints,
    Finish,
    NextRound,
    Sheet,
    State,
)

D6 = {v: str(v) for v in range(1, 7)}


def parse_categories(text: str) -> tuple[str, ...]:
    """The categories named in ``text``, comma-separated ("Roads, Cities, Cards")."""
    names = tuple(" ".join(part.split()) for part in text.split(","))
    names = tuple(n for n in names if n)
    if len(names) > MAX_CATEGORIES:
        raise IllegalAction(
            f"a sheet has at most {MAX_CATEGORIES} categories, not {len(names)}",
            code="setup/invalid",
        )
    long = [n for n in names if len(n) > CATEGORY_LENGTH]
    if long:
        raise IllegalAction(
            f"category {long[0]!r} is longer than {CATEGORY_LENGTH} characters: shorten it",
            code="setup/invalid",
        )
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise IllegalAction(
            f"category {twice[0]!r} is named twice: each category once", code="setup/invalid"
        )
    return names


def setup(players: int, options: Mapping[str, Any]) -> State:
    """A blank sheet (the options are checked against the schema first: Session.create)."""
    sheet = Sheet(
        categories=parse_categories(options.get("categories", "")),
        dice=options.get("dice", 2),
        rounds=options.get("rounds", 0),
        low_wins=options.get("low_wins", False),
    )
    return State(players=players, sheet=sheet)


def dice(state: State) -> DiceSpec | None:
    """The sheet's dice, whenever the game goes on (their roll is only shown)."""
    if state.ended or not state.sheet.dice:
        return None
    return DiceSpec(count=state.sheet.dice, faces=D6, purpose="roll")


def apply(state: State, action: Any) -> State:
    """The state after ``action``; IllegalAction (nothing changes) if it is not allowed."""
    if state.ended:
        raise IllegalAction(f"the game is over ({state.ended})", code="action/game_over")
    if isinstance(action, DiceRolled):
        spec = dice(state)
        if spec is None:
            raise IllegalAction("this sheet reads no dice", code="roll/not_expected")
        spec.check(tuple(action.values))
        return replace(state, roll=tuple(action.values))
    if isinstance(action, EnterPoints):
        return _enter(state, action)
    if isinstance(action, NextRound):
        if state.sheet.rounds and state.round >= state.sheet.rounds:
            return replace(state, ended=f"{state.sheet.rounds} rounds played")
        return replace(state, round=state.round + 1, roll=None)
    if isinstance(action, Finish):
        return replace(state, ended="ended by the host")
    raise IllegalAction(f"the score pad has no action {action!r}", code="action/unknown")


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _enter(state: State, action: EnterPoints) -> State:
    player, seat = action.player, action.seat
    if not _whole(player) or not 0 <= player < state.players:
        raise IllegalAction(
            f"there is no player {player!r} at this sheet (players 0 to {state.players - 1})",
            code="action/bad_seat",
        )
    if seat is not None and seat != player:
        raise IllegalAction(
            f"a phone enters its own player's points: seat {seat + 1} cannot enter "
            f"player {player + 1}'s (the table can)",
            code="action/not_your_seat",
        )
    if action.category not in state.sheet.lines:
        raise IllegalAction(
            f"this sheet has no category {action.category!r}; it has "
            f"{', '.join(state.sheet.lines)}",
            code="action/bad_category",
        )
    if not _whole(action.points) or abs(action.points) > POINTS_LIMIT:
        raise IllegalAction(
            f"points are a whole number from -{POINTS_LIMIT} to {POINTS_LIMIT}, "
            f"not {action.points!r}",
            code="action/bad_points",
        )
    points = {**state.points, (state.round, player, action.category): action.points}
    return replace(state, points=points)


__all__ = ["apply", "dice", "parse_categories", "setup"]

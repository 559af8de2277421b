"""The First Island's rules: the pure reducer ``apply(state, action)`` (setup: setup.py).

Every rule check raises IllegalAction naming the rule and quoting the input;
nothing here rolls dice or shuffles cards: rolls and dealt S cards arrive as
chance actions.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from companion.engine.game import DiceRolled, DiceSpec
from companion.errors import IllegalAction
from companion.games.first_island.model import (
    FACE_TRIBE,
    TRIBES,
    Cell,
    card_rules,
    table_card,
    tribe_name,
)
from companion.games.first_island.setup import parse_options, setup
from companion.games.first_island.state import (
    SOLO_ROUNDS,
    Advance,
    DealTableCard,
    Finish,
    KeepRoll,
    Mark,
    PlayerBoard,
    Reroll,
    ScoreCampCard,
    SkipCampCard,
    State,
)

TRIBE_DICE = DiceSpec(count=5, faces=FACE_TRIBE, purpose="roll of the 5 tribe dice")
MAX_OVERRIDES = 3


def dice(state: State) -> DiceSpec | None:
    """The tribe dice, whenever a roll would be accepted now."""
    if state.phase not in ("roll", "done") or state.s_card_due or state.ending:
        return None
    return TRIBE_DICE


# -- helpers -------------------------------------------------------------------
def _check_seat(state: State, seat: Any) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.players:
        raise IllegalAction(
            f"there is no seat {seat!r} in a {state.players}-player game "
            f"(seats are 0 to {state.players - 1})",
            code="action/bad_seat",
        )


def _not_ended(state: State) -> None:
    if state.ended:
        raise IllegalAction(f"the game is over ({state.ended})", code="action/game_over")


def _clear_turn(state: State) -> State:
    """Forget the previous turn's picks (die use, marks, override box of the turn)."""
    boards = tuple(
        replace(b, dice_used=frozenset(), marks=0, override_this_turn=False) for b in state.boards
    )
    return replace(state, roll=None, rerolled=False, roll_kept=False, boards=boards)


def _start_turn(state: State, roll: tuple[int, ...]) -> State:
    """Put a new roll on the table; an S card scored before it is discarded now.

    The S card stays until the roll so that every player who completed it can
    score it (the rulebook: "make sure all players ... have scored for it").
    """
    table, spent, scored = state.table, state.table_spent, state.table_scored_by
    if scored:
        rules = card_rules(state.options.card_variant)
        table, scored = None, frozenset()
        if rules.single_table_card:
            spent = True
        elif len(set(rules.table_points)) == 1:
            table = table_card(rules.table_points[0])
    state = _clear_turn(state)
    # the camp cards' window before this roll closes: each may score a card in the next
    boards = tuple(replace(b, card_this_round=False) for b in state.boards)
    return replace(
        state, roll=roll, boards=boards, table=table, table_spent=spent, table_scored_by=scored
    )


def _check_end_of_turn(state: State) -> State:
    if state.phase != "done":
        return state
    if state.solo and state.round >= SOLO_ROUNDS:
        return replace(state, ended=f"{SOLO_ROUNDS} rounds played")
    if all(state.board_full(s) for s in range(state.players)):
        return replace(state, ended="the island is full")
    return state


# -- the reducer -----------------------------------------------------------------
def apply(state: State, action: Any) -> State:
    """The state after ``action``; raises IllegalAction (naming the rule) if it is not legal."""
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalAction(f"The First Island has no action {action!r}", code="action/unknown")
    _not_ended(state)
    return handler(state, action)


def _roll(state: State, action: DiceRolled) -> State:
    if state.phase == "mark":
        waiting = [s + 1 for s in range(state.players) if not state.seat_done(s)]
        raise IllegalAction(
            f"round {state.round} is already rolled ({_roll_text(state.roll)}) and seat(s) "
            f"{', '.join(map(str, waiting))} have not finished marking",
            code="roll/not_expected",
        )
    if state.ending:
        raise _ending_error()
    if state.s_card_due:
        raise IllegalAction(
            "turn up the S card before the roll: tap its points on the table page",
            code="cards/s_card_due",
        )
    TRIBE_DICE.check(action.values)
    if state.phase == "done":
        state = replace(state, round=state.round + 1)
    return _start_turn(state, tuple(action.values))


def _ending_error() -> IllegalAction:
    return IllegalAction(
        "a third camp card was scored: the game ends before the next roll, once everyone "
        "who can has scored a card; press the button to end it",
        code="action/game_ending",
    )


def _roll_text(roll: tuple[int, ...] | None) -> str:
    return "none" if roll is None else ", ".join(tribe_name(FACE_TRIBE[v]) for v in roll)


def reroll_problem(state: State) -> IllegalAction | None:
    """Why the dice may not be rerolled now, or None if they may."""
    if state.phase != "mark" or state.roll is None:
        return IllegalAction(
            "a reroll comes right after a roll, before anyone marks", code="roll/not_expected"
        )
    if state.rerolled:
        return IllegalAction(
            "the dice were already rerolled this turn (once per turn)", code="roll/reroll_used"
        )
    if state.roll_kept:
        return IllegalAction(
            f"seat {state.roller + 1}, who rolled, kept this roll; it can no longer be rerolled",
            code="roll/reroll_too_late",
        )
    if Counter(state.roll).most_common(1)[0][1] < 3:
        return IllegalAction(
            f"no tribe shows 3 or more times in this roll ({_roll_text(state.roll)}), "
            "so nothing may be rerolled",
            code="roll/no_reroll",
        )
    return None


def _reroll(state: State, action: Reroll) -> State:
    problem = reroll_problem(state)
    if problem is not None:
        raise problem
    assert state.roll is not None
    value = Counter(state.roll).most_common(1)[0][0]
    TRIBE_DICE.check(tuple(action.values))
    kept = [v for v in state.roll if v != value]
    fresh = Counter(action.values)
    fresh.subtract(kept)
    if any(n < 0 for n in fresh.values()):
        raise IllegalAction(
            f"the dice not rerolled ({_roll_text(tuple(kept))}) must still show the same "
            f"faces; the new roll shows {_roll_text(tuple(action.values))}",
            code="roll/kept_dice_changed",
        )
    new_faces = iter(fresh.elements())
    roll = tuple(v if v != value else next(new_faces) for v in state.roll)
    return replace(state, roll=roll, rerolled=True)


def _resolve_pick(
    state: State, board: PlayerBoard, pick: Any, used: set[int]
) -> tuple[str, int | None]:
    """(tribe, die number or None for an override) for one pick, checking the dice rules."""
    assert state.roll is not None
    if isinstance(pick, int) and not isinstance(pick, bool):
        if not 1 <= pick <= len(state.roll):
            raise IllegalAction(
                f"there is no die {pick}; dice are numbered 1 to 5", code="action/bad_die"
            )
        if pick in board.dice_used or pick in used:
            raise IllegalAction(f"die {pick} was already used this turn", code="action/die_used")
        used.add(pick)
        return FACE_TRIBE[state.roll[pick - 1]], pick
    if isinstance(pick, str) and pick in TRIBES:
        return pick, None
    raise IllegalAction(
        f"a pick is a die number 1..5 or a tribe name for an override ({', '.join(TRIBES)}), "
        f"not {pick!r}",
        code="action/bad_pick",
    )


def _check_override(state: State, board: PlayerBoard, tribe: str, overrides: int) -> None:
    if not state.options.overrides_allowed:
        raise IllegalAction(
            f"tribe overrides are not allowed in the {state.options.difficulty} solo game",
            code="action/override_not_allowed",
        )
    if overrides > 1 or board.override_this_turn:
        raise IllegalAction(
            "only one tribe override may be used per turn", code="action/override_per_turn"
        )
    if tribe in board.overrides:
        raise IllegalAction(
            f"tribe override for {tribe_name(tribe)} already used", code="action/override_used"
        )
    if len(board.overrides) >= MAX_OVERRIDES:
        raise IllegalAction(
            f"you may use at most {MAX_OVERRIDES} overrides", code="action/override_limit"
        )


def _keep(state: State, action: KeepRoll) -> State:
    _check_seat(state, action.seat)
    if action.seat != state.roller:
        raise IllegalAction(
            f"seat {state.roller + 1} rolled this round: theirs is the choice to reroll",
            code="roll/not_the_roller",
        )
    problem = reroll_problem(state)
    if problem is not None:
        raise IllegalAction(f"there is no reroll to decline: {problem.message}", code=problem.code)
    return replace(state, roll_kept=True)


def _mark(state: State, action: Mark) -> State:
    _check_seat(state, action.seat)
    if state.roll is None:
        raise IllegalAction(
            f"round {state.round} has no roll yet: roll the dice first", code="action/no_roll"
        )
    if reroll_problem(state) is None:  # the roller may still reroll: their choice first
        if action.seat != state.roller:
            raise IllegalAction(
                f"seat {state.roller + 1} rolled 3 or more of a kind and may reroll them: "
                "wait until they reroll or keep the roll",
                code="action/reroll_pending",
            )
        state = replace(state, roll_kept=True)  # the roller marks: the roll is kept
    board = state.boards[action.seat]
    if state.seat_done(action.seat):
        raise IllegalAction(
            f"seat {action.seat + 1} has already marked 2 hexes this turn", code="action/turn_done"
        )
    h = action.hex
    if not (isinstance(h, tuple) and len(h) == 2 and all(isinstance(c, int) for c in h)):
        raise IllegalAction(f"a hex is [q, r], not {h!r}", code="action/bad_hex")
    if h not in state.island:
        raise IllegalAction(f"hex ({h[0]},{h[1]}) is not on the island", code="action/off_map")
    if h in board.cells:
        raise IllegalAction(f"hex ({h[0]},{h[1]}) is already marked", code="action/hex_marked")
    if not isinstance(action.picks, tuple) or len(action.picks) != 2:
        raise IllegalAction(
            f"mark a hex with exactly 2 picks, not {action.picks!r}", code="action/bad_pick"
        )
    used: set[int] = set()
    resolved = [_resolve_pick(state, board, p, used) for p in action.picks]
    overrides = [t for t, die in resolved if die is None]
    for tribe in overrides:
        _check_override(state, board, tribe, len(overrides))
    tribes = tuple(t for t, _ in resolved)
    if tribes[0] == tribes[1]:
        cell = Cell(h, (tribes[0],))
    else:
        if action.axis not in (0, 1, 2) or isinstance(action.axis, bool):
            raise IllegalAction(
                f"a hex split between {tribe_name(tribes[0])} and {tribe_name(tribes[1])} "
                f"needs a split axis 0, 1 or 2, not {action.axis!r}",
                code="action/bad_axis",
            )
        cell = Cell(h, tribes, action.axis)
    board = replace(
        board,
        cells={**board.cells, h: cell},
        overrides=board.overrides + tuple(overrides),
        dice_used=board.dice_used | used,
        marks=board.marks + 1,
        override_this_turn=board.override_this_turn or bool(overrides),
    )
    return _check_end_of_turn(state.with_board(action.seat, board))


def _advance(state: State, action: Advance) -> State:
    if state.ending and state.phase in ("roll", "done"):
        return replace(state, ended="a third camp card was scored")
    if state.phase != "done":
        if state.roll is None:
            raise IllegalAction(
                f"round {state.round} has not been rolled yet", code="action/not_done"
            )
        waiting = [s + 1 for s in range(state.players) if not state.seat_done(s)]
        raise IllegalAction(
            f"seat(s) {', '.join(map(str, waiting))} have not marked both hexes of round "
            f"{state.round} yet",
            code="action/not_done",
        )
    return replace(_clear_turn(state), round=state.round + 1)


def _finish(state: State, action: Finish) -> State:
    return replace(state, ended="ended by the host")


# The camp-card handlers live beside the cards; imported late to avoid a cycle.
from companion.games.first_island.cards import (  # noqa: E402
    deal_table_card,
    score_camp_card,
    skip_camp_card,
)

_HANDLERS = {
    DiceRolled: _roll,
    Reroll: _reroll,
    Mark: _mark,
    Advance: _advance,
    Finish: _finish,
    KeepRoll: _keep,
    ScoreCampCard: score_camp_card,
    SkipCampCard: skip_camp_card,
    DealTableCard: deal_table_card,
}

__all__ = ["apply", "dice", "parse_options", "reroll_problem", "setup"]

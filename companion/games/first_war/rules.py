"""The First War's setup, the order of a turn's phases, victory, and the pure reducer
``apply(state, action)`` (docs/first-war.md)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.engine.game import DiceRolled, DiceSpec
from companion.errors import IllegalAction
from companion.games.first_war import conflict, economy, movement
from companion.games.first_war.hexmap import START_FIELDS, START_PLAINS
from companion.games.first_war.state import (
    KINDS,
    PHASES,
    Activate,
    Card,
    Cover,
    Done,
    Emergency,
    Finish,
    Move,
    Piece,
    Retreat,
    Reveal,
    Side,
    Stacks,
    State,
    Wound,
)

D6 = {v: str(v) for v in range(1, 7)}
CENTRAL = Card(1, 1)  # the second player's free Level I card


def setup(players: int, options: Any) -> State:
    sides = []
    for seat in (0, 1):
        fields = (Piece("healer"), Piece("scientist"), Piece("farmer"), Piece("farmer"))
        cells = {START_FIELDS[seat]: fields, START_PLAINS[seat]: (Piece("hunter"),) * 2}
        free = frozenset({CENTRAL}) if seat == 1 else frozenset()
        sides.append(Side(cells=cells, revealed=free, active=free))
    terrain = {START_FIELDS[s]: "fields" for s in (0, 1)}
    terrain.update({START_PLAINS[s]: "plain" for s in (0, 1)})
    return State(terrain=terrain, sides=(sides[0], sides[1]))


def dice(state: State) -> DiceSpec | None:
    """The die for a population increase on a tile of two or three types."""
    if state.ended or state.phase != "population" or not state.pending:
        return None
    return DiceSpec(1, D6, purpose=f"population on {economy.name(state.pending[0])}")


def actor(state: State) -> int | None:
    """Who the game waits on (None: the die)."""
    if state.ended:
        return None
    b = state.battle
    if state.phase == "conflict" and b is not None:
        if b.retreats:
            return b.retreats[0][0]
        return state.seat if b.stacks else 1 - state.seat
    if state.phase == "population":
        return None
    return state.seat


def apply(state: State, action: Any) -> State:
    """The state after ``action``; IllegalAction (nothing changes) if it is not allowed."""
    if state.ended:
        raise IllegalAction(f"the game is over ({state.ended})", code="action/game_over")
    if isinstance(action, Finish):
        return replace(state, ended="ended by the host: a draw", winner=None)
    if isinstance(action, DiceRolled):
        spec = dice(state)
        if spec is None:
            raise IllegalAction("no die is wanted now", code="roll/not_expected")
        spec.check(tuple(action.values))
        return _advance(economy.rolled(state, action.values[0]))
    seat = getattr(action, "seat", None)
    if seat is not None and seat != actor(state):
        who = actor(state)
        raise IllegalAction(
            f"player {seat + 1} cannot act now: the game waits on "
            + ("the die" if who is None else f"player {who + 1}"),
            code="action/not_your_turn",
        )
    handler = _HANDLERS.get((state.phase, type(action)))
    if handler is None:
        raise IllegalAction(
            f"{action.type} is not part of the {state.phase} phase", code="action/wrong_phase"
        )
    return handler(state, action)


def _emergency(state: State, a: Emergency) -> State:
    side = replace(state.sides[a.seat], emergency=True)
    return _next_phase(_with_side(state, a.seat, side))


def _with_side(state: State, seat: int, side: Side) -> State:
    sides = list(state.sides)
    sides[seat] = side
    return replace(state, sides=tuple(sides))


def _done(state: State, a: Done) -> State:
    if state.phase == "food" and state.wounds_owed:
        raise IllegalAction(
            f"place the food shortfall's {state.wounds_owed} wound(s) first", code="war/wounds_owed"
        )
    return _next_phase(state)


def _move(state: State, a: Move) -> State:
    return _check_victory(movement.move(state, a))


def _in_battle(fn):
    def handler(state: State, a: Any) -> State:
        if state.battle is None:
            raise IllegalAction("no fight is waiting", code="war/wrong_step")
        state = fn(state, a)
        return _advance(state) if state.battle is None else state

    return handler


def _wound(state: State, a: Wound) -> State:
    if not state.wounds_owed:
        raise IllegalAction("no wound is owed", code="war/wrong_step")
    state = economy.wound(state, a)
    return _advance(state) if not state.wounds_owed else state


def _research(fn):
    def handler(state: State, a: Any) -> State:
        return _check_victory(fn(state, a))

    return handler


def _next_phase(state: State) -> State:
    """The phase after this one, run as far as it goes without a choice."""
    state = _check_victory(state)
    if state.ended:
        return state
    i = PHASES.index(state.phase)
    if i + 1 == len(PHASES):
        return _next_turn(state)
    state = replace(state, phase=PHASES[i + 1])
    return _enter(state)


def _enter(state: State) -> State:
    """Start the phase: what the device does by itself, then wait for choices or move on."""
    phase = state.phase
    if phase == "conflict":
        state = conflict.next_battle(state)
        return state if state.battle is not None else _next_phase(state)
    if phase == "food":
        state = economy.feed(state)
        return state if state.wounds_owed else _next_phase(state)
    if phase == "research":
        return replace(state, points=economy.research_points(state, state.seat))
    if phase == "healing":
        return _next_phase(economy.heal(state))
    if phase == "population":
        state = economy.population(state)
        return state if state.pending else _next_phase(state)
    return state


def _advance(state: State) -> State:
    """After a choice that may finish the phase (a fight, the wounds, the dice)."""
    state = _check_victory(state)
    if state.ended:
        return state
    if state.phase == "conflict" and state.battle is None:
        return _next_phase(state)
    if state.phase == "food" and not state.wounds_owed:
        return _next_phase(state)
    if state.phase == "population" and not state.pending:
        return _next_phase(state)
    return state


def _next_turn(state: State) -> State:
    if state.level_iv == 0 and state.seat == 1:  # the second player has finished his turn
        return _level_iv_end(state)
    seat = 1 - state.seat
    side = state.sides[seat]
    fresh = {
        c: tuple(replace(p, steps=0, came=None, stopped=False) for p in ps)
        for c, ps in side.cells.items()
    }
    state = _with_side(state, seat, replace(side, cells=fresh, emergency=False))
    return replace(state, seat=seat, phase="emergency", turn=state.turn + (seat == 0), points=0)


def level_iv(side: Side) -> int:
    return sum(1 for c in side.active if c.level == 4)


def _level_iv_end(state: State) -> State:
    if level_iv(state.sides[1]) < 3:
        return replace(state, ended="3 Level IV developments active", winner=0)
    paid = [sum(s.paid.values()) for s in state.sides]
    if paid[0] == paid[1]:
        return replace(
            state, ended="both have 3 Level IV developments, equal costs paid: a draw", winner=None
        )
    win = 0 if paid[0] > paid[1] else 1
    return replace(
        state, ended="both have 3 Level IV developments: the higher costs paid", winner=win
    )


def losing(state: State, seat: int) -> str | None:
    """Why ``seat`` has lost, if it has: its Fields taken, a type gone, all wounded."""
    side, enemy = state.sides[seat], state.sides[1 - seat]
    home = START_FIELDS[seat]
    if enemy.cells.get(home) and not side.cells.get(home):
        return "its starting Fields taken"
    gone = [k for k in KINDS if not side.count(k)]
    if gone:
        return f"its last {gone[0]} lost"
    if all(p.wounded for ps in side.cells.values() for p in ps):
        return "every piece wounded"
    return None


def _check_victory(state: State) -> State:
    """Victory, after each phase: the player to move wins by the opponent's loss; a player
    whose own action leaves him losing loses; 3 active Level IV cards (see the docs)."""
    me, other = state.seat, 1 - state.seat
    why = losing(state, other)
    if why:
        return replace(state, ended=f"player {other + 1} lost: {why}", winner=me)
    why = losing(state, me)
    if why:
        return replace(state, ended=f"player {me + 1} lost: {why}", winner=other)
    if level_iv(state.sides[me]) >= 3 and state.level_iv is None:
        if me == 1:
            return replace(state, ended="3 Level IV developments active", winner=1)
        return replace(state, level_iv=0)
    return state


_HANDLERS = {
    ("emergency", Emergency): _emergency,
    ("emergency", Done): _done,
    ("hunters", Move): _move,
    ("hunters", Done): _done,
    ("others", Move): _move,
    ("others", Done): _done,
    ("conflict", Stacks): _in_battle(conflict.stacks),
    ("conflict", Cover): _in_battle(conflict.cover),
    ("conflict", Retreat): _in_battle(conflict.retreat),
    ("food", Wound): _wound,
    ("research", Reveal): _research(economy.reveal),
    ("research", Activate): _research(economy.activate),
    ("research", Done): _done,
}

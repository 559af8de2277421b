"""Food, research, the development pyramid, healing and population increase: the arithmetic
players get wrong, done by the device (docs/first-war.md)."""

from __future__ import annotations

from dataclasses import replace

from companion.games.first_war import hexmap
from companion.games.first_war.hexmap import Cell
from companion.games.first_war.movement import cell, place, refuse, remove
from companion.games.first_war.state import (
    KINDS,
    LEVELS,
    STACK,
    Activate,
    Card,
    Piece,
    Reveal,
    Side,
    State,
    Wound,
)

FOOD_FARMER = 3
HEAL_FOOD = 3  # surplus food that heals one wounded Healer
MAX_COST = 30


def food(state: State, seat: int) -> tuple[int, int]:
    """(food available, population to feed) for ``seat``."""
    side = state.sides[seat]
    total = 0
    for at, pieces in side.cells.items():
        terrain = state.terrain.get(at)
        for p in pieces:
            if p.wounded:
                continue
            if side.emergency:
                total += FOOD_FARMER if terrain == "fields" else 0
            elif p.kind == "farmer" and terrain == "fields":
                total += FOOD_FARMER
            elif p.kind == "hunter" and terrain in ("forest", "plain"):
                total += 1
    return total, side.count()


def _side(state: State, seat: int, side: Side) -> State:
    sides = list(state.sides)
    sides[seat] = side
    return replace(state, sides=tuple(sides))


def _set_piece(state: State, seat: int, at: Cell, i: int, piece: Piece) -> State:
    side = state.sides[seat]
    ps = side.cells[at]
    return _side(
        state, seat, replace(side, cells={**side.cells, at: (*ps[:i], piece, *ps[i + 1 :])})
    )


def feed(state: State) -> State:
    """The food phase: a surplus heals wounded Healers, a shortfall is owed as wounds."""
    seat = state.seat
    have, need = food(state, seat)
    if have >= need:
        heals = (have - need) // HEAL_FOOD
        for at, pieces in sorted(state.sides[seat].cells.items()):
            for i, p in enumerate(pieces):
                if heals and p.kind == "healer" and p.wounded:
                    state = _set_piece(state, seat, at, i, replace(p, wounded=False))
                    heals -= 1
        return state
    return replace(state, wounds_owed=need - have)


def wound(state: State, a: Wound) -> State:
    """A shortfall's wound on the piece the player chose: an already wounded one (which goes
    back to the track) only when every other is wounded."""
    at = cell(a.cell)
    pieces = state.pieces(a.seat, at)
    if not 0 <= a.piece < len(pieces):
        raise refuse(f"you have no piece {a.piece} on {a.cell}", "war/no_piece")
    p = pieces[a.piece]
    if p.wounded:
        healthy = any(not q.wounded for ps in state.sides[a.seat].cells.values() for q in ps)
        if healthy:
            raise refuse(
                "a wounded piece takes a second wound only when all your others are wounded",
                "war/wound_order",
            )
        state = remove(state, a.seat, at, a.piece)
    else:
        state = _set_piece(state, a.seat, at, a.piece, replace(p, wounded=True))
    owed = state.wounds_owed - 1 if state.sides[a.seat].count() else 0
    return replace(state, wounds_owed=owed)


def research_points(state: State, seat: int) -> int:
    """1 for each tile with 2 or more healthy Scientists, 1 for each terrain type holding one."""
    tiles = types = 0
    seen: set[str] = set()
    for at, pieces in state.sides[seat].cells.items():
        n = sum(1 for p in pieces if p.kind == "scientist" and not p.wounded)
        tiles += n >= 2
        if n and state.terrain.get(at) not in seen:
            seen.add(state.terrain.get(at))  # type: ignore[arg-type]
            types += 1
    return tiles + types


def parents(card: Card) -> list[Card]:
    if card.level == 1:
        return []
    above = LEVELS[card.level - 2]
    return [Card(card.level - 1, i) for i in (card.index - 1, card.index) if 0 <= i < above]


def _card(level: int, index: int) -> Card:
    if not 1 <= level <= 4 or not 0 <= index < LEVELS[level - 1]:
        raise refuse(
            f"no development card {index} at level {level} (levels 1 to 4 hold "
            f"{', '.join(map(str, LEVELS))} cards)",
            "war/no_card",
        )
    return Card(level, index)


def reveal(state: State, a: Reveal) -> State:
    card, side = _card(a.level, a.index), state.sides[a.seat]
    if card in side.revealed:
        raise refuse("that card is face up already", "war/card")
    if a.level > 1 and not any(c.level == a.level - 1 for c in side.revealed):
        raise refuse(
            f"a level {a.level} card is revealed once a level {a.level - 1} card is", "war/card"
        )
    if state.points < a.level:
        raise refuse(
            f"revealing a level {a.level} card costs {a.level} research points; "
            f"{state.points} left",
            "war/points",
        )
    state = _side(state, a.seat, replace(side, revealed=side.revealed | {card}))
    return replace(state, points=state.points - a.level)


def activate(state: State, a: Activate) -> State:
    card, side = _card(a.level, a.index), state.sides[a.seat]
    if card not in side.revealed or card in side.active:
        raise refuse("activate a face-up card that is not active yet", "war/card")
    missing = [c for c in parents(card) if c not in side.active]
    if missing:
        raise refuse("the cards above it must be active first", "war/card")
    if not 0 <= a.cost <= MAX_COST or state.points < a.cost:
        raise refuse(
            f"its cost ({a.cost}) is more than your {state.points} research points "
            "(or no printed cost)",
            "war/points",
        )
    bonus = dict(side.bonus)
    if a.bonus:
        what, _, kind = a.bonus.partition(":")
        if what not in ("move", "attack", "defend") or kind not in KINDS or not 1 <= a.amount <= 3:
            raise refuse(
                "a card's bonus is move:, attack: or defend: a piece kind, +1 to +3", "war/bonus"
            )
        bonus[a.bonus] = bonus.get(a.bonus, 0) + a.amount
    side = replace(side, active=side.active | {card}, paid={**side.paid, card: a.cost}, bonus=bonus)
    return replace(_side(state, a.seat, side), points=state.points - a.cost)


def heal(state: State) -> State:
    """Each healthy Healer removes one wound in its tile."""
    seat = state.seat
    for at, pieces in sorted(state.sides[seat].cells.items()):
        healers = sum(1 for p in pieces if p.kind == "healer" and not p.wounded)
        for i, p in enumerate(pieces):
            if healers and p.wounded:
                state = _set_piece(state, seat, at, i, replace(p, wounded=False))
                healers -= 1
    return state


def population(state: State) -> State:
    """Each tile with 2 or 3 of the player's pieces grows: one type adds that type; two or
    three types wait for the die (``pending``)."""
    seat, waiting = state.seat, []
    for at, pieces in sorted(state.sides[seat].cells.items()):
        if len(pieces) not in (2, 3):
            continue
        kinds = sorted({p.kind for p in pieces}, key=KINDS.index)
        if len(kinds) == 1:
            state = grow(state, seat, at, kinds[0])
        else:
            waiting.append(at)
    return replace(state, pending=tuple(waiting))


def by_die(kinds: list[str], value: int) -> str:
    """The rulebook's mapping: two types, 1-3 the earlier; three, 1-2, 3-4, 5-6."""
    ordered = sorted(kinds, key=KINDS.index)
    if len(ordered) == 2:
        return ordered[0 if value <= 3 else 1]
    return ordered[(value - 1) // 2]


def grow(state: State, seat: int, at: Cell, kind: str) -> State:
    if state.sides[seat].track(kind) <= 0 or len(state.pieces(seat, at)) >= STACK:
        return state  # that type's supply is empty: no piece
    return place(state, seat, at, Piece(kind, stopped=True))


def rolled(state: State, value: int) -> State:
    at = state.pending[0]
    kinds = list({p.kind for p in state.pieces(state.seat, at)})
    state = grow(state, state.seat, at, by_die(kinds, value))
    return replace(state, pending=state.pending[1:])


def name(at: Cell) -> str:
    return hexmap.name(at)

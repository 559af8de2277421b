"""Movement: one step to a neighbour or across a revealed lake, discovery of face-down tiles,
stacking, and the attacks that stop a piece (docs/first-war.md)."""

from __future__ import annotations

from dataclasses import replace

from companion.errors import IllegalAction
from companion.games.first_war import hexmap
from companion.games.first_war.hexmap import START_FIELDS, START_PLAINS, Cell
from companion.games.first_war.state import (
    SET_ASIDE_FIELDS,
    STACK,
    TERRAINS,
    TILES,
    Move,
    Piece,
    State,
)


def refuse(why: str, code: str = "war/illegal_move") -> IllegalAction:
    return IllegalAction(why, code=code)


def cell(text: str) -> Cell:
    try:
        return hexmap.parse(text)
    except ValueError as exc:
        raise refuse(str(exc), "war/bad_cell") from None


def face_down_left(state: State, terrain: str) -> int:
    """How many tiles of ``terrain`` may still lie face down."""
    start = {"fields": len(START_FIELDS) + SET_ASIDE_FIELDS, "plain": len(START_PLAINS)}
    shown = sum(
        1
        for c, t in state.terrain.items()
        if t == terrain and c not in START_FIELDS and c not in START_PLAINS
    )
    return TILES[terrain] - start.get(terrain, 0) - shown


def discover(state: State, at: Cell, reveal: str) -> State:
    """``at`` turned face up as ``reveal``: IllegalAction unless that terrain can lie there."""
    if reveal not in TERRAINS:
        raise refuse(
            f"{hexmap.name(at)} is face down: name the terrain it shows ({', '.join(TERRAINS)})",
            "war/reveal",
        )
    if face_down_left(state, reveal) <= 0:
        raise refuse(
            f"every {reveal} tile is face up already: check {hexmap.name(at)} again", "war/reveal"
        )
    return replace(state, terrain={**state.terrain, at: reveal})


def allowed_steps(state: State, seat: int, kind: str) -> int:
    return 1 + state.sides[seat].bonus.get(f"move:{kind}", 0)


def take_piece(pieces: tuple[Piece, ...], kind: str, wounded: bool) -> tuple[int, Piece] | None:
    """The first piece of ``kind`` (and woundedness) free to move."""
    for i, p in enumerate(pieces):
        if p.kind == kind and p.wounded == wounded and not p.stopped:
            return i, p
    return None


def lake_between(state: State, a: Cell, b: Cell) -> Cell | None:
    for n in hexmap.neighbours(a):
        if state.terrain.get(n) == "lake" and hexmap.adjacent(n, b) and b != a:
            return n
    return None


def place(state: State, seat: int, at: Cell, piece: Piece) -> State:
    side = state.sides[seat]
    cells = {**side.cells, at: (*side.cells.get(at, ()), piece)}
    sides = list(state.sides)
    sides[seat] = replace(side, cells=cells)
    return replace(state, sides=tuple(sides))


def remove(state: State, seat: int, at: Cell, index: int) -> State:
    side = state.sides[seat]
    rest = side.cells[at][:index] + side.cells[at][index + 1 :]
    cells = {c: ps for c, ps in side.cells.items() if c != at}
    if rest:
        cells[at] = rest
    sides = list(state.sides)
    sides[seat] = replace(side, cells=cells)
    return replace(state, sides=tuple(sides))


def move(state: State, a: Move) -> State:
    """The state after the move ``a`` (phases and turn already checked)."""
    seat, enemy = a.seat, 1 - a.seat
    frm, to = cell(a.frm), cell(a.to)
    hunters = state.phase == "hunters"
    if (a.kind == "hunter") != hunters:
        raise refuse(
            "Hunters move in the Hunter movement phase, the other pieces after it",
            "war/wrong_phase",
        )
    found = take_piece(state.pieces(seat, frm), a.kind, a.wounded)
    if found is None:
        raise refuse(
            f"no {'wounded ' if a.wounded else ''}{a.kind} of yours on {a.frm} free to move",
            "war/no_piece",
        )
    index, piece = found
    if piece.steps >= allowed_steps(state, seat, a.kind):
        raise refuse(f"that {a.kind} has moved as far as it may this turn", "war/no_steps")
    across = None
    if not hexmap.adjacent(frm, to):
        across = lake_between(state, frm, to)
        if across is None:
            raise refuse(
                f"{a.to} is neither beside {a.frm} nor across a revealed lake from it",
                "war/too_far",
            )
    if to not in state.terrain:  # a discovery
        state = discover(state, to, a.reveal)
        if state.terrain[to] == "lake":  # turned back: it stays, and moves no more
            stayed = replace(piece, steps=piece.steps + 1, stopped=True)
            return place(remove(state, seat, frm, index), seat, frm, stayed)
    elif a.reveal:
        raise refuse(f"{a.to} is face up already", "war/reveal")
    if state.terrain[to] == "lake":
        raise refuse(
            f"a piece never ends its move in a lake: cross {a.to} to a tile beyond it", "war/lake"
        )
    if len(state.pieces(seat, to)) >= STACK:
        raise refuse(f"{a.to} already holds {STACK} of your pieces", "war/stacking")
    attack = bool(state.pieces(enemy, to))
    if attack and piece.wounded:
        raise refuse("a wounded piece never attacks", "war/wounded")
    if attack and across is not None:
        raise refuse("no attack across a lake", "war/lake_attack")
    moved = replace(
        piece, steps=piece.steps + 1, stopped=attack, came=frm if attack else piece.came
    )
    return place(remove(state, seat, frm, index), seat, to, moved)

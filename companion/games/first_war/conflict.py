"""Conflict, tile by tile (in board order): the defender stacks his pieces, the attacker
covers as many stacks as he can, each covered stack is resolved (triple advantage sends the
weaker back to the track; a simple one wounds the weaker, which retreats; a tie wounds both
and the attacker retreats), the retreats are made, and the fight goes on until one side
alone holds the tile (docs/first-war.md)."""

from __future__ import annotations

from dataclasses import replace

from companion.games.first_war import hexmap
from companion.games.first_war.hexmap import Cell
from companion.games.first_war.movement import cell, discover, place, refuse, remove
from companion.games.first_war.state import (
    ATTACK,
    DEFEND,
    STACK,
    Battle,
    Cover,
    Piece,
    Retreat,
    Side,
    Stacks,
    State,
)


def contested(state: State) -> list[Cell]:
    """The tiles both hold where the player whose turn it is has a piece able to attack."""
    return sorted(
        c for c in state.sides[0].cells if c in state.sides[1].cells and attackers(state, c)
    )


def next_battle(state: State) -> State:
    """The next contested tile's fight, or None left (battle None)."""
    tiles = contested(state)
    return replace(state, battle=Battle(tiles[0]) if tiles else None)


def attack_strength(side: Side, p: Piece) -> int:
    if side.emergency and p.kind == "hunter":
        return ATTACK["farmer"]  # a food emergency's Hunters attack as Farmers
    return ATTACK[p.kind] + side.bonus.get(f"attack:{p.kind}", 0)


def defend_strength(side: Side, p: Piece) -> int:
    if side.emergency and p.kind != "farmer":
        return DEFEND[p.kind]  # the strength they had at the start: no card's improvement
    return DEFEND[p.kind] + side.bonus.get(f"defend:{p.kind}", 0)


def stacks(state: State, a: Stacks) -> State:
    b = state.battle
    defender = 1 - state.seat
    pieces = state.pieces(defender, b.cell)  # type: ignore[union-attr]
    if a.seat != defender or b is None or b.stacks:
        raise refuse("the defender stacks his pieces once each round of a fight", "war/wrong_step")
    n = max(a.stacks, default=-1) + 1
    if len(a.stacks) != len(pieces) or sorted(set(a.stacks)) != list(range(n)):
        raise refuse(
            f"give each of your {len(pieces)} pieces on {hexmap.name(b.cell)} a stack "
            "number, 0 up, none skipped",
            "war/bad_stacks",
        )
    groups = tuple(tuple(i for i, s in enumerate(a.stacks) if s == k) for k in range(n))
    return replace(state, battle=replace(b, stacks=groups))


def attackers(state: State, at: Cell) -> list[int]:
    """The attacking pieces on ``at``: the current player's healthy ones."""
    return [i for i, p in enumerate(state.pieces(state.seat, at)) if not p.wounded]


def cover(state: State, a: Cover) -> State:
    b = state.battle
    if a.seat != state.seat or b is None or not b.stacks or b.retreats:
        raise refuse(
            "the attacker covers the defender's stacks once they are made", "war/wrong_step"
        )
    mine = attackers(state, b.cell)
    if len(a.covers) != len(mine) or any(not 0 <= s < len(b.stacks) for s in a.covers):
        raise refuse(
            f"give each of your {len(mine)} attacking pieces the stack it covers "
            f"(0 to {len(b.stacks) - 1})",
            "war/bad_cover",
        )
    if len(set(a.covers)) < min(len(mine), len(b.stacks)):
        raise refuse("cover as many of the defender's stacks as you can", "war/bad_cover")
    return _resolve(
        state, {s: [mine[i] for i, c in enumerate(a.covers) if c == s] for s in set(a.covers)}
    )


def _resolve(state: State, covered: dict[int, list[int]]) -> State:
    """Each covered stack against the pieces on it; the wounds, the losses and the retreats."""
    b = state.battle
    at, att, dfn = b.cell, state.seat, 1 - state.seat  # type: ignore[union-attr]
    a_side, d_side = state.sides[att], state.sides[dfn]
    a_pieces, d_pieces = list(state.pieces(att, at)), list(state.pieces(dfn, at))
    fate: dict[tuple[int, int], str] = {}  # (seat, index) -> "lost", "wound", "retreat"
    for s, mine in covered.items():
        theirs = b.stacks[s]  # type: ignore[union-attr]
        a = sum(attack_strength(a_side, a_pieces[i]) for i in mine)
        d = sum(defend_strength(d_side, d_pieces[i]) for i in theirs)
        if a == d:
            for i in theirs:
                fate[(dfn, i)] = "wound"
            for i in mine:
                fate[(att, i)] = "wound retreat"
        elif max(a, d) >= 3 * min(a, d):
            for i in theirs if a > d else mine:
                fate[(dfn if a > d else att, i)] = "lost"
        else:
            for i in theirs if a > d else mine:
                fate[(dfn if a > d else att, i)] = "wound retreat"
    kept: dict[int, list[Piece]] = {att: [], dfn: []}
    owed: list[tuple[int, int]] = []  # (seat, index in the kept list) that must retreat
    for seat, pieces in ((att, a_pieces), (dfn, d_pieces)):
        for i, p in enumerate(pieces):
            what = fate.get((seat, i), "")
            if what == "lost" or ("wound" in what and p.wounded):
                continue  # back to the track (a second wound too)
            q = replace(p, wounded=True) if "wound" in what else p
            kept[seat].append(q)
            if "retreat" in what:
                owed.append((seat, len(kept[seat]) - 1))
    for seat in (att, dfn):
        state = _set_cell(state, seat, at, tuple(kept[seat]))
    order = sorted(owed, key=lambda o: (o[0] == att, o[1]))  # the defender's first
    retreats = tuple((seat, at, i) for seat, i in order)
    state = replace(state, battle=replace(b, retreats=retreats))  # type: ignore[arg-type]
    return _settle(state)


def _set_cell(state: State, seat: int, at: Cell, pieces: tuple[Piece, ...]) -> State:
    side = state.sides[seat]
    cells = {c: ps for c, ps in side.cells.items() if c != at}
    if pieces:
        cells[at] = pieces
    sides = list(state.sides)
    sides[seat] = replace(side, cells=cells)
    return replace(state, sides=tuple(sides))


def retreat_options(state: State, seat: int, at: Cell, piece: Piece) -> list[Cell]:
    """Where a retreating piece may go (an empty list: it returns to the track)."""
    enemy = 1 - seat
    attacking = seat == state.seat
    came = {p.came for p in state.pieces(state.seat, at)} - {None}
    out = []
    for n in hexmap.neighbours(at) + ([piece.came] if attacking and piece.came else []):
        if n in out or len(state.pieces(seat, n)) >= STACK or state.pieces(enemy, n):
            continue
        terrain = state.terrain.get(n)
        if attacking:
            if n == piece.came or (state.pieces(seat, n) and terrain != "lake"):
                out.append(n)
        elif terrain != "lake" and n not in came:
            out.append(n)  # land, or face down (a discovery)
    return out


def _settle(state: State) -> State:
    """Pieces with no retreat go back to the track; when no retreat is owed, the next round
    of this fight, or the next fight."""
    b = state.battle
    while b is not None and b.retreats:
        seat, at, i = b.retreats[0]
        piece = state.pieces(seat, at)[i]
        if retreat_options(state, seat, at, piece):
            return state
        state = _drop_retreat(remove(state, seat, at, i), seat, at, i)
        b = state.battle
    at = b.cell  # type: ignore[union-attr]
    if state.pieces(0, at) and state.pieces(1, at) and attackers(state, at):
        return replace(state, battle=Battle(at))  # the next round: the defender restacks
    return next_battle(state)  # (wounded attackers left cannot attack: that fight is over)


def _drop_retreat(state: State, seat: int, at: Cell, i: int) -> State:
    """The retreat of piece ``i`` done: later indices of the same tile and seat shift down."""
    b = state.battle
    rest = tuple(
        (s, c, j - 1 if (s, c) == (seat, at) and j > i else j) for s, c, j in b.retreats[1:]
    )  # type: ignore[union-attr]
    return replace(state, battle=replace(b, retreats=rest))  # type: ignore[arg-type]


def retreat(state: State, a: Retreat) -> State:
    b = state.battle
    if b is None or not b.retreats:
        raise refuse("no piece is retreating now", "war/wrong_step")
    seat, at, i = b.retreats[0]
    if a.seat != seat or a.piece != i:
        raise refuse(
            f"the next to retreat is player {seat + 1}'s piece {i} on {hexmap.name(at)}",
            "war/wrong_step",
        )
    to = cell(a.to)
    piece = state.pieces(seat, at)[i]
    if to not in retreat_options(state, seat, at, piece):
        raise refuse(f"{a.to} is no retreat for that piece", "war/bad_retreat")
    state = _drop_retreat(remove(state, seat, at, i), seat, at, i)
    if to not in state.terrain:
        state = discover(state, to, a.reveal)
        if state.terrain[to] == "lake":
            return _settle(state)  # a lake: the piece goes back to the track
    return _settle(place(state, seat, to, replace(piece, stopped=True)))

"""The position file: the map's revealed tiles, each side's pieces and development cards;
``score`` reports each side's population, food balance, research points, active Level IV
cards and points spent, and who has won with the reason, or no one
(``companion score first-war FILE``; docs/first-war.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import BadBoard, IllegalAction
from companion.games.first_war import economy, hexmap, rules
from companion.games.first_war.state import KINDS, LEVELS, STACK, TERRAINS, Card, Piece, Side, State
from companion.games.first_war.views import ROMAN, card_name


def write(state: State) -> dict:
    return {
        "game": "first-war",
        "terrain": {hexmap.name(c): t for c, t in sorted(state.terrain.items())},
        "to_move": state.seat + 1,
        "sides": [
            {
                "pieces": {
                    hexmap.name(c): [("wounded " if p.wounded else "") + p.kind for p in ps]
                    for c, ps in sorted(s.cells.items())
                },
                "active": sorted(card_name(c) for c in s.active),
                "paid": {card_name(c): v for c, v in s.paid.items()},
                "emergency": s.emergency,
            }
            for s in state.sides
        ],
    }


def _bad(where: str, why: str) -> BadBoard:
    return BadBoard(f"{where}: {why}", code="board/invalid")


def _cell(where: str, text: Any):
    try:
        return hexmap.parse(text)
    except ValueError as exc:
        raise _bad(where, str(exc)) from None


def _card(where: str, text: Any) -> Card:
    if isinstance(text, str) and "-" in text:
        level, _, index = text.partition("-")
        if level in ROMAN and index.isdigit() and index.isascii():
            lv, i = ROMAN.index(level) + 1, int(index) - 1
            if 0 <= i < LEVELS[lv - 1]:
                return Card(lv, i)
    raise _bad(
        where,
        f"{text!r} is no development card: I-1 to I-3, II-1 to II-4, III-1 to III-5, IV-1 to IV-6",
    )


def _side(where: str, data: Any) -> Side:
    if not isinstance(data, Mapping):
        raise _bad(where, "must be an object (pieces, active, paid, emergency)")
    pieces = data.get("pieces", {})
    if not isinstance(pieces, Mapping):
        raise _bad(f"{where}.pieces", "maps cells to lists of pieces")
    cells = {}
    for name, ps in pieces.items():
        at = _cell(f"{where}.pieces", name)
        if not isinstance(ps, list) or not 1 <= len(ps) <= STACK:
            raise _bad(f"{where}.pieces.{name}", f"must list 1 to {STACK} pieces")
        out = []
        for p in ps:
            text = p.removeprefix("wounded ") if isinstance(p, str) else None
            if text not in KINDS:
                raise _bad(
                    f"{where}.pieces.{name}",
                    f"{p!r} is no piece: hunter, farmer, healer or scientist, 'wounded ' before",
                )
            out.append(Piece(text, wounded=p.startswith("wounded ")))
        cells[at] = tuple(out)
    active = data.get("active", [])
    if not isinstance(active, list):
        raise _bad(f"{where}.active", "must list the active cards (IV-2, ...)")
    paid = data.get("paid", {})
    if not isinstance(paid, Mapping) or any(
        not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 30 for v in paid.values()
    ):
        raise _bad(f"{where}.paid", "maps cards to the cost paid (0 to 30)")
    emergency = data.get("emergency", False)
    if not isinstance(emergency, bool):
        raise _bad(f"{where}.emergency", "must be true or false")
    return Side(
        cells=cells,
        active=frozenset(_card(f"{where}.active", c) for c in active),
        paid={_card(f"{where}.paid", k): v for k, v in paid.items()},
        emergency=emergency,
    )


def read(data: Any) -> State:
    if not isinstance(data, Mapping):
        raise _bad("the file", "must be a JSON object with terrain and sides")
    terrain = data.get("terrain", {})
    if not isinstance(terrain, Mapping) or any(t not in TERRAINS for t in terrain.values()):
        raise _bad("terrain", f"maps cells to {', '.join(TERRAINS)}")
    tiles = {_cell("terrain", k): t for k, t in terrain.items()}
    sides = data.get("sides")
    if not isinstance(sides, list) or len(sides) != 2:
        raise _bad("sides", "must list the 2 sides")
    two = (_side("sides[0]", sides[0]), _side("sides[1]", sides[1]))
    for s, side in enumerate(two):
        for at in side.cells:
            if tiles.get(at) in (None, "lake"):
                raise _bad(
                    f"sides[{s}].pieces.{hexmap.name(at)}", "pieces stand on revealed land only"
                )
    to_move = data.get("to_move", 1)
    if to_move not in (1, 2):
        raise _bad("to_move", "must be 1 or 2")
    return State(terrain=tiles, sides=two, seat=to_move - 1)


def score(data: Any) -> dict:
    state = read(data)
    sides = []
    for s in (0, 1):
        have, need = economy.food(state, s)
        side = state.sides[s]
        sides.append(
            {
                "player": s + 1,
                "population": side.count(),
                "food": have,
                "food_balance": have - need,
                "research": economy.research_points(state, s),
                "level_iv_active": rules.level_iv(side),
                "points_spent": sum(side.paid.values()),
            }
        )
    winner, reason = None, None
    for s in (0, 1):
        why = rules.losing(state, 1 - s)
        if why:
            winner, reason = s + 1, f"player {2 - s} lost: {why}"
            break
    else:
        threes = [s for s in (0, 1) if rules.level_iv(state.sides[s]) >= 3]
        if len(threes) == 1:
            winner, reason = threes[0] + 1, "3 Level IV developments active"
        elif len(threes) == 2:
            spent = [sides[0]["points_spent"], sides[1]["points_spent"]]
            if spent[0] != spent[1]:
                winner = 1 if spent[0] > spent[1] else 2
                reason = "both have 3 Level IV developments: the higher costs paid"
            else:
                reason = "both have 3 Level IV developments, equal costs paid: a draw"
    return {"sides": sides, "winner": winner, "reason": reason}


def start(data: Any) -> State:
    """A game that plays on from a position file (the ``position`` option)."""
    try:
        state = read(data)
    except BadBoard as exc:
        raise IllegalAction(f"option 'position': {exc}", code="setup/bad_option") from None
    for seat in (0, 1):
        if not state.sides[seat].cells:
            raise IllegalAction(
                f"option 'position': side {seat + 1} has no pieces", code="setup/bad_option"
            )
    return state

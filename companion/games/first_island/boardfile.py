"""The board file: a finished (or any) First Island board as JSON, read and written.

    {"game": "first-island",
     "map": [[q, r], ...],                    # optional; the default island if absent
     "cells": [{"hex": [q, r], "large": "builders"},
               {"hex": [q, r], "split": k, "halves": ["scholars", "healers"]}],
     "claimed_camps": [[[q, r, half], ...], ...],   # optional
     "overrides_used": 2, "camp_cards": [8, 10, 4]}

Every problem raises BadBoard naming the cell (by its index and hex) and what to fix.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.errors import BadBoard
from companion.games.first_island.hexgrid import Hex, Island, default_island
from companion.games.first_island.model import TRIBES, Cell, PlacementRef
from companion.games.first_island.scoring import Layout, score_board


@dataclass(frozen=True)
class BoardFile:
    island: Island
    cells: dict[Hex, Cell]
    claimed: tuple[tuple[PlacementRef, ...], ...]
    overrides_used: int
    camp_cards: tuple[int, ...]

    def score(self) -> dict:
        return score_board(
            self.island, self.cells, self.claimed, self.overrides_used, self.camp_cards
        )


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _hex(value: Any, where: str) -> Hex:
    if not (isinstance(value, list | tuple) and len(value) == 2 and all(map(_is_int, value))):
        raise BadBoard(f"{where}: a hex is [q, r] with whole numbers, not {value!r}")
    return (value[0], value[1])


def parse_map(value: Any) -> Island:
    """An island from a list of [q, r] hexes."""
    if not isinstance(value, list | tuple) or not value:
        raise BadBoard(f"map must be a non-empty list of [q, r] hexes, not {value!r}")
    seen: set[Hex] = set()
    for i, item in enumerate(value):
        h = _hex(item, f"map entry {i}")
        if h in seen:
            raise BadBoard(f"map entry {i}: hex ({h[0]},{h[1]}) is listed twice")
        seen.add(h)
    return Island(seen)


def _tribe(value: Any, where: str) -> str:
    if value not in TRIBES:
        raise BadBoard(f"{where}: unknown tribe {value!r}; tribes are {', '.join(TRIBES)}")
    return value


def _cell(i: int, item: Any, island: Island) -> Cell:
    if not isinstance(item, dict):
        raise BadBoard(f"cell {i}: must be an object with 'hex', not {item!r}")
    h = _hex(item.get("hex"), f"cell {i}")
    where = f"cell {i} (hex ({h[0]},{h[1]}))"
    if h not in island:
        raise BadBoard(f"{where}: the hex is off the map")
    if "large" in item:
        extra = set(item) - {"hex", "large"}
        if extra:
            raise BadBoard(f"{where}: a large placement takes no {', '.join(sorted(extra))}")
        return Cell(h, (_tribe(item["large"], where),))
    axis, halves = item.get("split"), item.get("halves")
    if not _is_int(axis) or not 0 <= axis <= 2:
        raise BadBoard(f"{where}: split axis must be 0, 1 or 2, not {axis!r}")
    if not isinstance(halves, list | tuple) or len(halves) != 2:
        raise BadBoard(f"{where}: a split hex needs 'halves': two tribes, not {halves!r}")
    tribes = (_tribe(halves[0], where), _tribe(halves[1], where))
    if tribes[0] == tribes[1]:
        raise BadBoard(
            f"{where}: the same tribe ({tribes[0]}) on both halves; mark it as "
            f'{{"large": "{tribes[0]}"}} instead'
        )
    return Cell(h, tribes, axis)


def _claims(value: Any, layout: Layout) -> tuple[tuple[PlacementRef, ...], ...]:
    if not isinstance(value, list | tuple):
        raise BadBoard(f"claimed_camps must be a list of camps, not {value!r}")
    used: set[PlacementRef] = set()
    camps = []
    for i, camp in enumerate(value):
        where = f"claimed camp {i}"
        if not isinstance(camp, list | tuple) or len(camp) < 3:
            raise BadBoard(f"{where}: a camp is a list of 3 or more [q, r, half] placements")
        refs = []
        for item in camp:
            ok = isinstance(item, list | tuple) and len(item) == 3 and all(map(_is_int, item))
            ref = tuple(item) if ok else None
            if ref is None or ref not in layout.tribe:
                raise BadBoard(
                    f"{where}: {item!r} is not a placement on this board "
                    "([q, r, half]; half 0 for a large placement)"
                )
            if ref in used:
                raise BadBoard(f"{where}: placement {list(ref)} is already in another camp")
            used.add(ref)
            refs.append(ref)
        if len({layout.tribe[r] for r in refs}) != 1:
            raise BadBoard(f"{where}: mixes tribes; a camp holds one tribe")
        if not layout.connected(refs):
            raise BadBoard(f"{where}: its placements are not contiguous")
        camps.append(tuple(refs))
    return tuple(camps)


def parse_board(data: Any) -> BoardFile:
    """Validate and read a board file's JSON object."""
    if not isinstance(data, dict):
        raise BadBoard("a board file is a JSON object")
    if data.get("game") != "first-island":
        raise BadBoard(f'"game" must be "first-island", not {data.get("game")!r}')
    island = parse_map(data["map"]) if data.get("map") is not None else default_island()
    cells_in = data.get("cells")
    if not isinstance(cells_in, list):
        raise BadBoard(f'"cells" must be a list of cells, not {cells_in!r}')
    cells: dict[Hex, Cell] = {}
    for i, item in enumerate(cells_in):
        cell = _cell(i, item, island)
        if cell.hex in cells:
            raise BadBoard(f"cell {i} (hex ({cell.hex[0]},{cell.hex[1]})): the hex is listed twice")
        cells[cell.hex] = cell
    claimed = _claims(data.get("claimed_camps", []), Layout(island, cells))
    overrides = data.get("overrides_used", 0)
    if not _is_int(overrides) or not 0 <= overrides <= 3:
        raise BadBoard(f"overrides_used must be 0 to 3, not {overrides!r}")
    cards = data.get("camp_cards", [])
    if not isinstance(cards, list) or not all(_is_int(c) and c >= 0 for c in cards):
        raise BadBoard(f"camp_cards must be a list of card points, not {cards!r}")
    return BoardFile(island, cells, claimed, overrides, tuple(cards))


def board_to_json(
    island: Island, cells: dict[Hex, Cell], claimed, overrides_used: int, camp_cards
) -> dict:
    """The board file for a board (what the engine exports for a finished game)."""
    data: dict[str, Any] = {"game": "first-island"}
    if island != default_island():
        data["map"] = island.to_json()
    data["cells"] = [cells[h].to_json() for h in sorted(cells)]
    data["claimed_camps"] = [[list(p) for p in camp] for camp in claimed]
    data["overrides_used"] = overrides_used
    data["camp_cards"] = list(camp_cards)
    return data

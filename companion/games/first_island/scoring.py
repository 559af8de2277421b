"""Camps and the score area of The First Island.

Readings of the rulebook that the code keeps to (each has a test):
- Placements are adjacent when they share an edge: across two hexes, or across
  the split line inside one hex. Touching at a corner only is not adjacency.
- A camp is a set of 3 or more contiguous same-tribe placements. A camp claimed
  for a camp card is cut off from the same-tribe placements around it: it stays
  exactly the claimed placements, and the rest form camps of their own.
- A tribe with no completed camp scores -5 in addition to -1 per stray placement.
- Requests count scorable placements only (placements in a completed camp).
- A placement touches the outside edge when at least one of its edges has no
  island hex beyond it.
- Matriarchy "score double for your largest camp": the base already counts each
  placement once, so the request adds the size of the largest camp again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from companion.games.first_island.hexgrid import Hex, Island, neighbour
from companion.games.first_island.model import TRIBES, Cell, PlacementRef


@dataclass(frozen=True)
class Camp:
    tribe: str
    placements: frozenset[PlacementRef]
    claimed: bool

    @property
    def complete(self) -> bool:
        return len(self.placements) >= 3


class Layout:
    """The placements of one board and how they touch (built once per scoring)."""

    def __init__(self, island: Island, cells: Mapping[Hex, Cell]):
        self.island = island
        self.tribe: dict[PlacementRef, str] = {}
        self.edges: dict[PlacementRef, tuple[int, ...]] = {}
        owner: dict[tuple[Hex, int], PlacementRef] = {}
        for cell in cells.values():
            for ref, tribe, edges in cell.placements():
                self.tribe[ref] = tribe
                self.edges[ref] = edges
                for d in edges:
                    owner[(cell.hex, d)] = ref
        self.adjacent: dict[PlacementRef, set[PlacementRef]] = {p: set() for p in self.tribe}
        for p, edges in self.edges.items():
            h = (p[0], p[1])
            for d in edges:
                other = owner.get((neighbour(h, d), (d + 3) % 6))
                if other is not None:
                    self.adjacent[p].add(other)
            if not cells[h].large:
                self.adjacent[p].add((p[0], p[1], 1 - p[2]))  # across the split line

    def on_coast(self, p: PlacementRef) -> bool:
        return bool(self.island.coast[(p[0], p[1])].intersection(self.edges[p]))

    def connected(self, group: Iterable[PlacementRef]) -> bool:
        group = set(group)
        if not group:
            return False
        start = next(iter(group))
        seen, todo = {start}, [start]
        while todo:
            for nxt in self.adjacent[todo.pop()] & group:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen == group

    def camps(self, claimed: Iterable[Iterable[PlacementRef]] = ()) -> list[Camp]:
        """Every camp (complete or not): claimed camps as claimed, the rest by contiguity."""
        claim_of: dict[PlacementRef, int] = {}
        camps: list[Camp] = []
        for i, group in enumerate(claimed):
            group = frozenset(tuple(p) for p in group)
            for p in group:
                claim_of[p] = i
            camps.append(Camp(self.tribe[next(iter(group))], group, True))
        seen: set[PlacementRef] = set(claim_of)
        for p in sorted(self.tribe):
            if p in seen:
                continue
            comp, todo = {p}, [p]
            seen.add(p)
            while todo:
                for nxt in self.adjacent[todo.pop()]:
                    if nxt not in seen and self.tribe[nxt] == self.tribe[p]:
                        seen.add(nxt)
                        comp.add(nxt)
                        todo.append(nxt)
            camps.append(Camp(self.tribe[p], frozenset(comp), False))
        return camps


def _scorable_of(layout: Layout, scorable: set, tribe: str) -> list[PlacementRef]:
    """The placements of ``tribe`` among ``scorable``, in order."""
    return sorted(p for p in scorable if layout.tribe[p] == tribe)


def _requests(
    layout: Layout, cells: Mapping[Hex, Cell], scorable: set, complete: dict
) -> tuple[dict[str, dict], dict[str, int]]:
    """Each tribe's request: what it counts ("detail", by name) and the points it gives."""
    of = {t: _scorable_of(layout, scorable, t) for t in TRIBES}
    detail: dict[str, dict] = {}
    scav_coast = sum(layout.on_coast(p) for p in of["scavengers"])
    detail["scavengers"] = {"on_coast": scav_coast}
    big_builders = sum(1 for (q, r, _h) in of["builders"] if cells[(q, r)].large)
    detail["builders"] = {"large_hexes": big_builders}
    scholars = of["scholars"]
    near = sum(
        1
        for p in scholars
        if any(layout.tribe[o] == "scavengers" and o in scorable for o in layout.adjacent[p])
    )
    edge = sum(layout.on_coast(p) for p in scholars)
    detail["scholars"] = {"next_to_scavengers": near, "on_coast": edge}
    largest = max((len(c.placements) for c in complete["matriarchy"]), default=0)
    detail["matriarchy"] = {"largest_camp": largest}
    partners = sorted(
        {
            layout.tribe[(q, r, 1 - h)]
            for (q, r, h) in of["healers"]
            if not cells[(q, r)].large and (q, r, 1 - h) in scorable
        }
    )
    detail["healers"] = {"share_hex_with": partners}
    detail["scientists"] = {"camps": len(complete["scientists"])}
    request = {
        "scavengers": scav_coast,
        "builders": 3 * big_builders,
        "scholars": near - 2 * edge,
        "matriarchy": largest,
        "healers": 2 * len(partners),
        "scientists": 2 * len(complete["scientists"]),
    }
    return detail, request


def score_board(
    island: Island,
    cells: Mapping[Hex, Cell],
    claimed: Iterable[Iterable[PlacementRef]] = (),
    overrides_used: int = 0,
    camp_cards: Iterable[int] = (),
) -> dict:
    """The whole score area of one board, as the rulebook lays it out.

    Returns {"total", "tribes": {tribe: {"placements", "scorable", "base", "request",
    "detail"}}, "overrides", "camp_cards"}; "detail" names each request's counts.
    """
    layout = Layout(island, cells)
    camps = layout.camps(claimed)
    scorable = {p for c in camps if c.complete for p in c.placements}
    complete = {t: [c for c in camps if c.tribe == t and c.complete] for t in TRIBES}

    detail, request = _requests(layout, cells, scorable, complete)

    tribes: dict[str, dict] = {}
    for t in TRIBES:
        placed = sum(1 for p in layout.tribe if layout.tribe[p] == t)
        good = len(_scorable_of(layout, scorable, t))
        base = good - (placed - good) - (0 if complete[t] else 5)
        tribes[t] = {
            "placements": placed,
            "scorable": good,
            "base": base,
            "request": request[t],
            "detail": detail[t],
        }
    cards = list(camp_cards)
    total = sum(v["base"] + v["request"] for v in tribes.values()) - overrides_used + sum(cards)
    return {
        "total": total,
        "tribes": tribes,
        "overrides": -overrides_used,
        "camp_cards": sum(cards),
        "camp_card_list": cards,
    }


def tribe_points(breakdown: dict, tribe: str) -> int:
    """A tribe's points for the solo targets: camps - strays (and -5) + request."""
    t = breakdown["tribes"][tribe]
    return t["base"] + t["request"]

"""Axial hex coordinates, the six directions, and the island map.

Directions are numbered 0..5 as the axial offsets (1,0), (1,-1), (0,-1),
(-1,0), (-1,1), (0,1); edge ``d`` of a hex faces its neighbour in direction
``d``. A split with axis ``k`` (0, 1 or 2) runs corner to corner and gives
``halves[0]`` the three edges toward ``k, k+1, k+2`` and ``halves[1]`` the edges
toward ``k+3, k+4, k+5``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from importlib import resources

Hex = tuple[int, int]

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def neighbour(h: Hex, d: int) -> Hex:
    dq, dr = DIRECTIONS[d % 6]
    return (h[0] + dq, h[1] + dr)


def half_edges(axis: int, half: int) -> tuple[int, ...]:
    """The edge directions owned by ``half`` (0 or 1) of a hex split on ``axis``."""
    start = axis + 3 * half
    return tuple((start + i) % 6 for i in range(3))


def split_for_edges(edges: Iterable[int]) -> tuple[int, int]:
    """The (axis, half) whose edges are exactly ``edges`` (three consecutive directions)."""
    wanted = set(edges)
    for axis in range(3):
        for half in range(2):
            if set(half_edges(axis, half)) == wanted:
                return axis, half
    raise ValueError(f"edges {sorted(wanted)} are not one half of a corner-to-corner split")


def rotate(h: Hex, turns: int = 1) -> Hex:
    """``h`` turned by ``turns`` x 60 degrees about the origin (direction d becomes d-1)."""
    q, r = h
    for _ in range(turns % 6):
        q, r = -r, q + r
    return (q, r)


def mirror(h: Hex) -> Hex:
    """``h`` reflected across the line q = r (direction d becomes 5-d)."""
    return (h[1], h[0])


def rotate_direction(d: int, turns: int = 1) -> int:
    return (d - turns) % 6


def mirror_direction(d: int) -> int:
    return (5 - d) % 6


class Island:
    """The set of hexes printed on the board."""

    def __init__(self, hexes: Iterable[Hex], name: str = "custom"):
        self.hexes: frozenset[Hex] = frozenset((int(q), int(r)) for q, r in hexes)
        self.name = name
        # The edges of each hex that face the sea: no island hex beyond them.
        self.coast: dict[Hex, frozenset[int]] = {
            h: frozenset(d for d in range(6) if neighbour(h, d) not in self.hexes)
            for h in self.hexes
        }

    def __repr__(self) -> str:
        return f"Island({sorted(self.hexes)!r}, name={self.name!r})"

    def __contains__(self, h: object) -> bool:
        return h in self.hexes

    def __len__(self) -> int:
        return len(self.hexes)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Island) and self.hexes == other.hexes

    def __hash__(self) -> int:
        return hash(self.hexes)

    def to_json(self) -> list[list[int]]:
        return [[q, r] for q, r in sorted(self.hexes)]


@cache
def default_island() -> Island:
    """The island the device uses unless a game names another (data in island.json)."""
    text = resources.files(__package__).joinpath("island.json").read_text()
    data = json.loads(text)
    return Island((tuple(h) for h in data["hexes"]), name=data["name"])

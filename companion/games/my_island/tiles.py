"""My Island's terrain tiles: four quadrants of land or water, a road end (plain, or with
the community it reaches first) or none on each edge, and a printed value.

A tile is written as a short code, ``VALUE:QUADRANTS:EDGES``, as it lies with no turn:

- QUADRANTS, four of ``L`` (land) or ``W`` (water) for the north-west, north-east,
  south-east and south-west quarters, clockwise;
- EDGES, one letter for each of the north, east, south and west edges: ``-`` no road,
  ``r`` a road end that runs on to the tile's centre, or the community at that road end:
  ``m`` Mining, ``f`` Fishing, ``l`` Logging, ``a`` Farming (agriculture), ``c`` City.

``12:LLLL:fr-a`` is a Full tile worth 12 with a Fishing community on its north road, a
plain road east, no road south and a Farming community on its west road. Every road end
on a tile meets the others at its centre; a community stops a road (commerce travels to
the first community it meets), so a road from the centre to a community goes no further.

A flipped tile (its back, the optional Water tile) is ``WATER``: all water, no roads,
worth 0.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.errors import IllegalAction

N, E, S, W = range(4)
DIRECTIONS = ("north", "east", "south", "west")
STEP = {N: (-1, 0), E: (0, 1), S: (1, 0), W: (0, -1)}  # (row, column) to the neighbour
# the two quadrants (NW 0, NE 1, SE 2, SW 3) each edge runs along, read left to right
# (north, south) or top to bottom (east, west): two tiles' facing edges read alike
HALVES = {N: (0, 1), E: (1, 2), S: (3, 2), W: (0, 3)}

COMMUNITIES = {"m": "mining", "f": "fishing", "l": "logging", "a": "farming", "c": "city"}
LETTER = {name: letter for letter, name in COMMUNITIES.items()}
ROAD = "road"  # a road end with no community at it
MAX_VALUE = 99
CODE = re.compile(r"^(\d{1,2}):([LW]{4}):([-rmflac]{4})$")


def opposite(d: int) -> int:
    return (d + 2) % 4


@dataclass(frozen=True)
class Tile:
    """A terrain tile as it lies on the board (``Tile.from_code('12:LLLL:fr-a')``).

    ``land``: the NW, NE, SE, SW quadrants, True for land. ``roads``: for the N, E, S, W
    edges, None (no road end), ``"road"``, or the community at that road end."""

    value: int
    land: tuple[bool, bool, bool, bool]
    roads: tuple[str | None, str | None, str | None, str | None]
    water_tile: bool = False  # a flipped tile: the optional Water tile

    @classmethod
    def from_code(cls, code: str) -> Tile:
        """The tile a code describes; IllegalAction naming what is wrong with a bad one."""
        if code == "WATER":
            return WATER
        m = CODE.match(code) if isinstance(code, str) else None
        if m is None:
            raise IllegalAction(
                f"tile {code!r} is not a tile code: write VALUE:QUADRANTS:EDGES, for example "
                "12:LLLL:fr-a (quadrants NW NE SE SW as L or W; edges N E S W as - none, "
                "r road, m mining, f fishing, l logging, a farming, c city)",
                code="tile/bad_code",
            )
        value, quads, edges = int(m[1]), m[2], m[3]
        land = tuple(q == "L" for q in quads)
        roads = tuple(None if e == "-" else ROAD if e == "r" else COMMUNITIES[e] for e in edges)
        tile = cls(value, land, roads)  # type: ignore[arg-type]
        for d in range(4):
            if tile.roads[d] is not None and not any(tile.edge(d)):
                raise IllegalAction(
                    f"tile {code!r} has a road end on its {DIRECTIONS[d]} edge, which is all "
                    "water: a road needs land under it",
                    code="tile/bad_code",
                )
        if not any(land):
            raise IllegalAction(
                f"tile {code!r} has no land: a terrain tile has land; a flipped tile is WATER",
                code="tile/bad_code",
            )
        return tile

    @property
    def code(self) -> str:
        if self.water_tile:
            return "WATER"
        quads = "".join("L" if x else "W" for x in self.land)
        edges = "".join("-" if r is None else "r" if r == ROAD else LETTER[r] for r in self.roads)
        return f"{self.value}:{quads}:{edges}"

    def __repr__(self) -> str:
        return f"Tile.from_code({self.code!r})"

    def turned(self, turns: int) -> Tile:
        """The tile turned clockwise a quarter ``turns`` times."""
        k = turns % 4
        if k == 0:
            return self
        land = tuple(self.land[(i - k) % 4] for i in range(4))
        roads = tuple(self.roads[(i - k) % 4] for i in range(4))
        return Tile(self.value, land, roads, self.water_tile)  # type: ignore[arg-type]

    def edge(self, d: int) -> tuple[bool, bool]:
        """The edge ``d`` as land (True) or water, its two halves read alike from both sides."""
        a, b = HALVES[d]
        return self.land[a], self.land[b]

    def has_water(self, d: int) -> bool:
        return not all(self.edge(d))

    def communities(self) -> list[tuple[int, str]]:
        """Each community with the edge whose road end it sits at."""
        return [(d, r) for d, r in enumerate(self.roads) if r not in (None, ROAD)]

    def has(self, community: str) -> bool:
        return community in self.roads

    @property
    def kind(self) -> str:
        """Quarter, Half, Three Quarter, Full, or Speciality (two opposite land quarters),
        by its land; Water for a flipped tile."""
        if self.water_tile:
            return "Water"
        n = sum(self.land)
        if n == 2 and self.land[0] == self.land[2]:
            return "Speciality"
        return {1: "Quarter", 2: "Half", 3: "Three Quarter", 4: "Full"}[n]


WATER = Tile(0, (False, False, False, False), (None, None, None, None), water_tile=True)

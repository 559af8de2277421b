"""Production points, from the island: what a tile played scores, which of its communities
trade, which communities its commerce dice count, and kingdoms (docs/my-island.md).

Pure functions of the island (square -> ``Placed``); each score is a list of ``Entry``
with its reason, so a phone can show it before the play is confirmed.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.games.my_island.board import Square, square_name
from companion.games.my_island.state import FISHING_VALUE, Entry, Placed, Rules
from companion.games.my_island.tiles import ROAD, Tile, opposite

Island = Mapping[Square, Placed]


def _step(rules: Rules, sq: Square, d: int) -> Square:
    return rules.board.neighbour(sq, d)


def road_meets(tile: Tile, other: Tile, d: int) -> bool:
    """Do ``tile``'s road end on edge ``d`` and ``other``'s facing one meet?"""
    return tile.roads[d] is not None and other.roads[opposite(d)] is not None


def placement_entries(
    rules: Rules, island: Island, seat: int, sq: Square, tile: Tile
) -> list[Entry]:
    """What ``seat`` scores for playing ``tile`` on ``sq``: road, water and port
    connections, or a Water tile's bordering tiles."""
    where = square_name(sq)
    if tile.water_tile:
        return [
            Entry(
                seat,
                nb.tile.value,
                "water_tile",
                f"Water tile on {where} borders {square_name(other)} ({nb.tile.value})",
            )
            for d in range(4)
            if (nb := island.get(other := _step(rules, sq, d))) is not None and nb.tile.value
        ]
    out = []
    for d in range(4):
        other = _step(rules, sq, d)
        nb = island.get(other)
        if nb is None:
            continue
        if road_meets(tile, nb.tile, d):
            out.append(
                Entry(
                    seat,
                    tile.value + nb.tile.value,
                    "road",
                    f"road {where}–{square_name(other)} ({tile.value}+{nb.tile.value})",
                )
            )
        if not tile.has_water(d):
            continue
        if nb.tile.water_tile:  # through one flipped tile, in a straight line
            beyond = _step(rules, other, d)
            far = island.get(beyond)
            if far is not None and far.owner == seat and not far.tile.water_tile:
                out.append(
                    Entry(
                        seat,
                        far.tile.value,
                        "water",
                        f"water {where}–{square_name(beyond)} across the Water "
                        f"tile on {square_name(other)} ({far.tile.value})",
                    )
                )
        elif nb.owner == seat:
            out.append(
                Entry(
                    seat,
                    nb.tile.value,
                    "water",
                    f"water {where}–{square_name(other)} ({nb.tile.value})",
                )
            )
    if rules.ports and tile.has("fishing"):
        for other in rules.board.around(sq):
            nb = island.get(other)
            if nb is not None and nb.tile.has("fishing"):
                out.append(
                    Entry(
                        seat,
                        tile.value + nb.tile.value,
                        "port",
                        f"port {where}–{square_name(other)} ({tile.value}+{nb.tile.value})",
                    )
                )
    return out


def trading(rules: Rules, island: Island, sq: Square, tile: Tile) -> list[str]:
    """The communities on ``tile`` (played on ``sq``) that trade with a neighbouring tile:
    at a road end that meets a road, or (ports) a Fishing community beside a Fishing
    community on any of the 8 surrounding tiles."""
    port = rules.ports and any(
        (nb := island.get(o)) is not None and nb.tile.has("fishing") for o in rules.board.around(sq)
    )
    out = []
    for d, community in tile.communities():
        nb = island.get(_step(rules, sq, d))
        if (nb is not None and road_meets(tile, nb.tile, d)) or (port and community == "fishing"):
            out.append(community)
    return out


def _follow(rules: Rules, island: Island, sq: Square, entry: int, owner: int) -> list[str]:
    """The communities of ``owner``'s territory a road reaches, coming into the tile on
    ``sq`` by its edge ``entry``: it stops at the first community it meets, and goes on
    only through ``owner``'s own tiles."""
    found: list[str] = []
    seen: set[tuple[Square, int]] = set()
    todo = [(sq, entry)]
    while todo:
        at, edge = todo.pop()
        here = island.get(at)
        if (at, edge) in seen or here is None or here.owner != owner:
            continue
        seen.add((at, edge))
        if here.tile.roads[edge] not in (None, ROAD):  # a community at this road end
            found.append(here.tile.roads[edge])  # type: ignore[arg-type]
            continue
        for d, road in enumerate(here.tile.roads):  # on from the centre, along each road
            if d == edge or road is None or (at, d) in seen:
                continue
            seen.add((at, d))
            if road != ROAD:
                found.append(road)
                continue
            nxt = _step(rules, at, d)
            there = island.get(nxt)
            if there is not None and road_meets(here.tile, there.tile, d):
                todo.append((nxt, opposite(d)))
    return found


def connected(rules: Rules, island: Island, sq: Square, owner: int) -> list[str]:
    """The communities whose commerce ``owner``'s dice count for the tile on ``sq``: the
    tile's own trading communities (if it is ``owner``'s), those its roads reach in
    ``owner``'s territory, and (ports) the Fishing communities on ``owner``'s surrounding
    tiles when the tile's Fishing community trades."""
    placed = island[sq]
    tile = placed.tile
    found = list(trading(rules, island, sq, tile)) if placed.owner == owner else []
    for d in range(4):
        other = _step(rules, sq, d)
        nb = island.get(other)
        if nb is not None and road_meets(tile, nb.tile, d):
            found += _follow(rules, island, other, opposite(d), owner)
    if rules.ports and "fishing" in trading(rules, island, sq, tile):
        for other in rules.board.around(sq):
            nb = island.get(other)
            if nb is not None and nb.owner == owner:
                found += [c for _, c in nb.tile.communities() if c == "fishing"]
    return found


def black_throwers(rules: Rules, island: Island, sq: Square) -> tuple[int, ...]:
    """The other players whose tile touches the tile on ``sq`` and trades with it (a road
    meeting a road, or (ports) Fishing beside Fishing), in turn order after its owner."""
    placed = island[sq]
    tile, seat = placed.tile, placed.owner
    owners = set()
    for d in range(4):
        nb = island.get(_step(rules, sq, d))
        if nb is not None and road_meets(tile, nb.tile, d):
            owners.add(nb.owner)
    if rules.ports and tile.has("fishing"):
        for other in rules.board.around(sq):
            nb = island.get(other)
            if nb is not None and nb.tile.has("fishing"):
                owners.add(nb.owner)
    owners -= {None, seat}
    start = seat if seat is not None else 0
    return tuple(sorted(owners, key=lambda s: (s - start) % 1000))  # type: ignore[operator]


def face_value(rules: Rules, face: str) -> int:
    if face == "fishing":
        return FISHING_VALUE
    return rules.values.get(face, 4)


def dice_entries(
    rules: Rules, island: Island, sq: Square, seat: int, faces: tuple[str, ...], colour: str
) -> list[Entry]:
    """What ``seat``'s commerce dice (``faces``, thrown for the tile on ``sq``) score: each
    die its face's value times the communities of that kind it counts (``connected``)."""
    found = connected(rules, island, sq, seat)
    out = []
    for face in faces:
        n = found.count(face)
        if face == "my-island" or not n:
            continue
        value = face_value(rules, face)
        out.append(
            Entry(
                seat,
                value * n,
                "dice",
                f"{colour} die {face.capitalize()}: {n} × {value} for the tile "
                f"on {square_name(sq)}",
            )
        )
    return out


def kingdom(rules: Rules, island: Island, sq: Square) -> set[Square]:
    """The tiles of the owner of ``sq``'s tile road-connected to it through their tiles."""
    owner = island[sq].owner
    found, todo = {sq}, [sq]
    while todo:
        at = todo.pop()
        for d in range(4):
            nxt = _step(rules, at, d)
            nb = island.get(nxt)
            if (
                nb is not None
                and nxt not in found
                and nb.owner == owner
                and road_meets(island[at].tile, nb.tile, d)
            ):
                found.add(nxt)
                todo.append(nxt)
    return found

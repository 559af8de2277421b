"""Camp card shapes: the card catalogue's shapes, and whether a claimed camp has one.

A card's layout "can be rotated any direction and mirrored". A shape is a set of
placements, each a hex and the hex edges it owns (all six for a large placement, three
for a half); turning and mirroring move both (hexgrid's ``rotate`` and ``mirror``, and
their directions). Two shapes match when one of the twelve turns and mirrors of one,
moved, is the other.

In the catalogue (``camp_cards.json``, "shapes"), a placement is ``[q, r]`` for a large
placement, or ``[q, r, k, h]`` for half ``h`` of a hex split on axis ``k``, as a board
file's cells.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from companion.errors import IllegalAction
from companion.games.first_island.hexgrid import (
    half_edges,
    mirror,
    mirror_direction,
    rotate,
    rotate_direction,
)
from companion.games.first_island.model import Cell, card_data

Placement = tuple[int, int, frozenset[int]]  # q, r, the edges it owns
Shape = frozenset[Placement]


def parse_shape(items: Iterable[Any], where: str) -> Shape:
    """A catalogue shape from its JSON placements; CompanionError naming ``where`` if bad."""
    out = set()
    for item in items:
        ok = (
            isinstance(item, list) and len(item) in (2, 4) and all(isinstance(v, int) for v in item)
        )
        if ok and len(item) == 4:
            ok = item[2] in (0, 1, 2) and item[3] in (0, 1)
        if not ok:
            raise IllegalAction(
                f"{where}: a placement is [q, r] (large) or [q, r, axis, half], not {item!r}",
                code="cards/bad_shape",
            )
        edges = frozenset(range(6)) if len(item) == 2 else frozenset(half_edges(item[2], item[3]))
        out.add((item[0], item[1], edges))
    return frozenset(out)


@cache
def catalogue() -> Mapping[str, Mapping[str, Shape]]:
    """Deck ("4", "5", "6", "S") -> card name -> shape, for the cards the catalogue draws."""
    shapes = card_data().get("shapes", {})
    return {
        deck: {name: parse_shape(items, f"card {name!r}") for name, items in cards.items()}
        for deck, cards in shapes.items()
    }


def _turn(p: Placement) -> Placement:
    q, r, edges = p
    return (*rotate((q, r)), frozenset(rotate_direction(d) for d in edges))


def _mirror(p: Placement) -> Placement:
    q, r, edges = p
    return (*mirror((q, r)), frozenset(mirror_direction(d) for d in edges))


def _moved_home(shape: Shape) -> Shape:
    """``shape`` moved so that its least hex is (0, 0)."""
    q0, r0 = min((q, r) for q, r, _ in shape)
    return frozenset((q - q0, r - r0, e) for q, r, e in shape)


def matches(shape: Shape, camp: Shape) -> bool:
    """Is ``camp`` ``shape``, turned, mirrored and moved as need be?"""
    if len(shape) != len(camp):
        return False
    home = _moved_home(camp)
    for mirrored in (False, True):
        current = frozenset(_mirror(p) for p in shape) if mirrored else shape
        for _ in range(6):
            if _moved_home(current) == home:
                return True
            current = frozenset(_turn(p) for p in current)
    return False


def camp_shape(
    cells: Mapping[tuple[int, int], Cell], camp: Iterable[tuple[int, int, int]]
) -> Shape:
    """The shape of a claimed camp (placements [q, r, half]) on a board of ``cells``."""
    out = set()
    for q, r, half in camp:
        cell = cells[(q, r)]
        edges = range(6) if cell.large else half_edges(cell.axis, half)
        out.add((q, r, frozenset(edges)))
    return frozenset(out)

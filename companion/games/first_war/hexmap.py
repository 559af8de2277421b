"""The First War's board: a hexagon of 6 tiles a side (91 cells) in axial coordinates, each
cell named by its row letter (A at the first player's corner, K at the second's) and its
place in the row from the left ("F6" is the centre)."""

from __future__ import annotations

import re
from collections.abc import Iterator

RADIUS = 5
Cell = tuple[int, int]  # (q, r)
STEPS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
# each player's starting Fields at opposite corners, the Plains beside it toward the centre
START_FIELDS = ((0, -RADIUS), (0, RADIUS))
START_PLAINS = ((0, -RADIUS + 1), (0, RADIUS - 1))


def on_board(c: Cell) -> bool:
    q, r = c
    return max(abs(q), abs(r), abs(q + r)) <= RADIUS


def cells() -> Iterator[Cell]:
    for r in range(-RADIUS, RADIUS + 1):
        for q in range(-RADIUS, RADIUS + 1):
            if on_board((q, r)):
                yield (q, r)


def neighbours(c: Cell) -> list[Cell]:
    return [n for n in ((c[0] + dq, c[1] + dr) for dq, dr in STEPS) if on_board(n)]


def adjacent(a: Cell, b: Cell) -> bool:
    return (b[0] - a[0], b[1] - a[1]) in STEPS


def _row_start(r: int) -> int:
    return max(-RADIUS, -RADIUS - r)


def name(c: Cell) -> str:
    q, r = c
    return f"{chr(ord('A') + r + RADIUS)}{q - _row_start(r) + 1}"


def parse(text: object) -> Cell:
    """The cell called ``text`` ("F6"); ValueError naming the board's rows if none."""
    if isinstance(text, str) and re.fullmatch(r"[A-Ka-k][0-9]{1,2}", text):
        r = ord(text[0].upper()) - ord("A") - RADIUS
        q = int(text[1:]) - 1 + _row_start(r)
        if on_board((q, r)):
            return (q, r)
    raise ValueError(
        f"{text!r} is no cell of the board: rows A to K, each cell by its place "
        "in the row from the left (F6 is the centre)"
    )

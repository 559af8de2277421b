"""Boxes: where dice lie in a picture, as (x0, y0, x1, y1) in its pixels, and what the
reader and the settler ask of them (one die or two, which die is read first). Plain
numbers only, no OpenCV."""

from __future__ import annotations

import numpy as np

Box = tuple[int, int, int, int]

# A peak this near a die already found (a share of its size), its box mostly within that
# die's, is that die again (``decode``).
SAME_DIE = 0.6


def in_rows(boxes: list[Box]) -> list[int]:
    """The order to read the dice in ``boxes`` in, as indices: rows top to bottom, each
    left to right. The highest die not yet in a row begins one, and every die whose centre
    lies no lower than that die's bottom edge joins it, so dice side by side are one row
    however little one stands higher. (A row by each die's own top edge or centre, divided
    by its height, would put the right one of two dice side by side first when it stands
    2 px higher.)"""
    left = sorted(range(len(boxes)), key=lambda i: (boxes[i][1] + boxes[i][3], boxes[i][0]))
    order: list[int] = []
    while left:
        bottom = 2 * boxes[left[0]][3]  # centres are doubled: no halves
        row = [i for i in left if boxes[i][1] + boxes[i][3] <= bottom]
        order += sorted(row, key=lambda i: boxes[i][0] + boxes[i][2])
        left = [i for i in left if boxes[i][1] + boxes[i][3] > bottom]
    return order


def within(boxes: np.ndarray, b) -> np.ndarray:
    """How much of each box's area in ``boxes`` (N, 4) lies within box ``b`` (0 to 1)."""
    across = np.maximum(0.0, np.minimum(boxes[:, 2], b[2]) - np.maximum(boxes[:, 0], b[0]))
    down = np.maximum(0.0, np.minimum(boxes[:, 3], b[3]) - np.maximum(boxes[:, 1], b[1]))
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    return across * down / np.maximum(1e-9, area)


def box_side(box) -> float:
    """The longer side of ``box``."""
    return max(box[2] - box[0], box[3] - box[1])


def area(box) -> int:
    """The area of ``box`` in pixels (0 for an empty one)."""
    return max(0, box[2] - box[0]) * max(0, box[3] - box[1])


def same_die(a, b) -> bool:
    """Whether boxes ``a`` and ``b`` are one die: centres closer than SAME_DIE of the larger."""
    return _centres_apart(a, b) < SAME_DIE


def _centres_apart(a, b) -> float:
    """How far apart the centres of boxes ``a`` and ``b`` are, in sides of the larger."""
    d = np.hypot((a[0] + a[2] - b[0] - b[2]) / 2, (a[1] + a[3] - b[1] - b[3]) / 2)
    return float(d / max(box_side(a), box_side(b), 1e-9))


def centre_inside(a, b) -> bool:
    """Whether the centre of box ``a`` lies inside box ``b``."""
    cx, cy = (a[0] + a[2]) / 2, (a[1] + a[3]) / 2
    return bool(b[0] <= cx <= b[2] and b[1] <= cy <= b[3])


def apart(a, b) -> bool:
    """Whether boxes ``a`` and ``b`` are two dice: neither's centre inside the other's box.
    Dice cannot overlap, so a second peak on a die (or on its side face) lies inside its
    box, while a die touching it has its centre outside, often under a whole die away."""
    return not centre_inside(a, b) and not centre_inside(b, a)

"""A die's body told light or dark: games whose dice differ only by colour (My Island's
three white commerce dice and its black one) ask for the dice of one colour at a time, and
the dice of the other colour may still lie on the table.

A die's top face is mostly its body: the median brightness of the middle of its box (half
its side, where the table does not show at a slant and a corner's shadow does not reach)
is its body's level, whatever the colour of its symbol or pips, which darken (or lighten)
less than half of it. Dice seen together are told apart by each other: under a dim lamp a
white die is grey, yet several times brighter than a black one (``die_tones``).
"""

from __future__ import annotations

import itertools

import numpy as np

# grey level (0..255) between the bodies when nothing else tells: on rendered white and black
# dice in the renderer's lights (120 dice), the middle's median ran 118 to 255 on white dice
# and 8 to 78 on black ones
LIGHT = 98
# two levels this many times apart are two colours of body: under the dimmest rendered light
# a white die's middle was 5 times a black one's; dice of one colour differ by under 1.5
APART = 1.8
TONES = ("white", "black")


def body_level(frame: np.ndarray, box) -> float:
    """The median grey level (0..255) of the middle of the die at ``box`` (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = (round(float(v)) for v in box)
    qx, qy = (x1 - x0) // 4, (y1 - y0) // 4
    middle = frame[max(0, y0 + qy) : max(1, y1 - qy), max(0, x0 + qx) : max(1, x1 - qx)]
    if middle.size == 0:
        return 0.0
    grey = middle.astype(np.float32).mean(axis=2) if middle.ndim == 3 else middle
    return float(np.median(grey))


def die_tones(frame: np.ndarray, boxes) -> list[str]:
    """ "white" or "black" for each die at ``boxes`` in ``frame`` (BGR): split at the widest
    step between their levels where it is ``APART`` or more, else at ``LIGHT``."""
    levels = [body_level(frame, b) for b in boxes]
    ordered = sorted(max(1.0, v) for v in levels)
    split = LIGHT
    steps = [(b / a, (a + b) / 2) for a, b in itertools.pairwise(ordered)]
    if steps and max(steps)[0] >= APART:
        split = max(steps)[1]
    return ["white" if v > split else "black" for v in levels]


def die_tone(frame: np.ndarray, box) -> str:
    """The body of the die at ``box`` in ``frame``, alone: white or black (``LIGHT``)."""
    return die_tones(frame, [box])[0]

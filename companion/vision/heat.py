"""The detector's heat map to boxes: one box a die, in the original picture's pixels.

The detector (``dice-detector.onnx``, the model card) answers with a map at ``STRIDE``
input pixels a cell: the heat of a die's centre there, the log of the die's width and
height in cells, and the centre's offset within its cell. ``decode`` turns its peaks into
boxes, hottest first, one a die.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.boxes import SAME_DIE, within

STRIDE = 4  # detector output cell, in input pixels
MAX_DICE = 60  # the dice a pass keeps by default (``decode``'s max_dice)
# The most a whole-picture pass, or a tile's, keeps of a heap: a bound on the classifier's
# work on a frame of hundreds of peaks.
HEAP_DICE = 200


def decode(
    out: np.ndarray,
    threshold: float,
    scale: float,
    shape: tuple[int, int],
    max_dice: int = MAX_DICE,
) -> list[tuple[tuple[int, int, int, int], float]]:
    """Detector output (5, H, W): peaks above ``threshold`` as boxes in original pixels,
    hottest first, at most ``max_dice`` of them.

    ``max_dice`` counts the dice kept, not the peaks looked at: a second peak on a die
    already kept uses up no place, so a crowded table, with more peaks than dice, keeps
    its cooler dice."""
    heats, cxs, cys, wholes, reach = _peaks(out, threshold, scale)
    h, w = shape
    found = []
    # A second peak on a die already found (its centre well inside that die, and its box
    # mostly within that die's) is the same die. Dice on a table are about a die apart, but
    # in a heap one die stands in front of another and their centres come closer: then most
    # of the second box lies outside the first. Each die kept marks
    # the cooler peaks on it at once.
    same = np.zeros(len(heats), bool)
    for i in range(len(heats)):
        if len(found) == max_dice:
            break
        if same[i]:
            continue
        whole = wholes[i]
        box = (
            int(max(0, whole[0])),
            int(max(0, whole[1])),
            int(min(w, whole[2])),
            int(min(h, whole[3])),
        )
        if box[2] > box[0] and box[3] > box[1]:
            found.append((box, float(heats[i])))
            later = slice(i + 1, None)
            near = np.hypot(cxs[later] - cxs[i], cys[later] - cys[i]) < reach[i]
            same[later] |= near & (within(wholes[later], whole) > 0.5)
    return found


def _peaks(out: np.ndarray, threshold: float, scale: float):
    """The detector output's peaks above ``threshold``, hottest first: each one's heat, centre
    (cxs, cys) and whole box in original pixels, and how near a second peak on its die comes
    (``reach``)."""
    heat = out[0]
    peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= threshold)
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-heat[ys, xs])
    ys, xs = ys[order], xs[order]
    # every peak's box at once (a crowded or noisy picture has hundreds of peaks)
    cxs = (xs + 0.5 + out[3, ys, xs]) * STRIDE / scale
    cys = (ys + 0.5 + out[4, ys, xs]) * STRIDE / scale
    bws, bhs = np.exp(out[1, ys, xs]) * STRIDE / scale, np.exp(out[2, ys, xs]) * STRIDE / scale
    wholes = np.stack([cxs - bws / 2, cys - bhs / 2, cxs + bws / 2, cys + bhs / 2], axis=1)
    reach = SAME_DIE * np.maximum(bws, bhs)  # how near a second peak on a die comes
    return heat[ys, xs], cxs, cys, wholes, reach

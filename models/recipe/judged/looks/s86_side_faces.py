"""Session 86's look (decides nothing; no rule, no candidate): the boxes the shipped reader
puts on no labelled die, on photos it may be looked at on (never the held-out split), and
how each lies against the nearest die it read that is labelled: right under it and about
as wide (a die's front face, seen at a slant, boxed as a die of its own), or beside it.

The photos: every train photo of matteop65 outside dev, and every fourth of epanemu's
(sorted names), despeckled, at 640 px. Each box on no labelled die is printed with its
reading and, for the nearest labelled die read, the gap between them in that die's height
(below) or width (beside) and how much of the narrower side they share; the boxes lying
within 0.3 of a labelled die, below or beside it, are drawn with that die's neighbourhood
into DRAW (red: the box on no die).

Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s86_side_faces.py ../shared/data/dice \
        models artifacts/s86/side_faces.png
"""

import sys
from pathlib import Path

import cv2
import numpy as np

from companion.vision.evaluate import CROP_SETS, despeckle, load_split, match
from companion.vision.reader import DiceReader

NEAR = 0.3  # a gap under this share of the die's side counts as touching it
SHARED = 0.6  # the share of the narrower side two boxes must share to be one above the other


def nearest(box, dice):
    """The smallest gap from ``box`` to a die in ``dice`` (boxes), below it or beside it,
    with how it lies."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    best = (float("inf"), "no labelled die read")
    for a in dice:
        aw, ah = a[2] - a[0], a[3] - a[1]
        ox = max(0, min(x1, a[2]) - max(x0, a[0])) / min(w, aw)
        oy = max(0, min(y1, a[3]) - max(y0, a[1])) / min(h, ah)
        below = (y0 - a[3]) / ah
        beside = max(x0 - a[2], a[0] - x1) / aw
        if ox > SHARED:
            best = min(best, (abs(below), f"below: gap {below:+.2f}, sharing {ox:.2f}"))
        if oy > SHARED:
            best = min(best, (abs(beside), f"beside: gap {beside:+.2f}, sharing {oy:.2f}"))
    return best


def drawn(img, box):
    x0, y0, x1, y1 = (round(c) for c in box)
    img = img.copy()
    cv2.rectangle(img, (x0, y0), (x1, y1), (0, 0, 255), 2)
    cx, cy, s = (x0 + x1) // 2, (y0 + y1) // 2, 2 * max(x1 - x0, y1 - y0)
    h, w = img.shape[:2]
    part = img[max(0, cy - s) : min(h, cy + s), max(0, cx - s) : min(w, cx + s)]
    return cv2.resize(part, (256, 256))


if __name__ == "__main__":
    data, models, draw = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    reader = DiceReader(models, threads=2)
    photos, extras, touching, tiles = 0, 0, {"below": 0, "beside": 0}, []
    for name, files in load_split(data, "train").items():
        if name in CROP_SETS:
            continue
        names = sorted(files)[:: 4 if name == "epanemu" else 1]
        for fn in names:
            img = despeckle(cv2.imread(str(data / name / fn)))
            found, truth = reader.read(img), files[fn]
            photos += 1
            pairs = match(found, truth)
            read = [found[i].box for i, _ in pairs]
            for i in sorted(set(range(len(found))) - {i for i, _ in pairs}):
                d = found[i]
                extras += 1
                gap, how = nearest(d.box, read)
                box = [round(c) for c in d.box]
                print(f"{name}/{fn} box {box} read {d.face} {d.confidence:.2f}; nearest: {how}")
                if gap < NEAR:
                    touching[how.split(":")[0]] += 1
                    tiles.append(drawn(img, d.box))
    print(f"{photos} photos, {extras} boxes on no labelled die, within {NEAR} of one:", touching)
    while len(tiles) % 4:
        tiles.append(np.zeros((256, 256, 3), np.uint8))
    if tiles:
        rows = [np.hstack(tiles[i : i + 4]) for i in range(0, len(tiles), 4)]
        cv2.imwrite(str(draw), np.vstack(rows))

"""Session 59, a look (deciding nothing): the peaks ``decode`` drops as a second peak on a
die already kept (its centre within ``SAME_DIE`` of that die's size), on the epanemu photos
already read (the dev photos and the train photos outside dev at places 0, 2, 4 and 6
modulo 8, despeckled, at 640 px, as session 58's looks), at the whole-picture pass's faint
threshold and 60 hottest peaks. For each dropped peak: whether its centre lies in another
labelled die than the kept die's, in the same one, or in none (the labelled die whose box
holds the centre, the nearest if several do), and how much of its box (the decoded box,
before it is cut at the picture's edges) lies within the kept die's box. Run from the
repository's root:
    .venv/bin/python models/recipe/judged/looks/s59_same_die.py ../shared/data/dice
"""

import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import looked_at_640

from companion.vision.evaluate import despeckle
from companion.vision.reader import (
    SAME_DIE,
    STRIDE,
    STRIDE_COARSEST,
    DiceReader,
    letterbox,
    neutral,
)


def share_inside(a, b) -> float:
    """How much of box ``a``'s area lies within box ``b``."""
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    return ix * iy / max(1e-9, (a[2] - a[0]) * (a[3] - a[1]))


def labelled(truth: list, x: float, y: float) -> int | None:
    """The labelled die whose box holds (x, y), the nearest centre if several do."""
    holding = [j for j, t in enumerate(truth) if t[0] <= x <= t[2] and t[1] <= y <= t[3]]
    if not holding:
        return None
    return min(
        holding,
        key=lambda j: np.hypot(
            x - (truth[j][0] + truth[j][2]) / 2, y - (truth[j][1] + truth[j][3]) / 2
        ),
    )


def main(data: Path) -> None:
    reader = DiceReader()
    pictures = [(n, labels) for _, n, labels in looked_at_640(data)]
    shares: dict[str, list[float]] = {}
    for name, labels in pictures:
        img = despeckle(cv2.imread(str(data / "epanemu" / name)))
        boxed, scale = letterbox(neutral(img), reader.detect_size, STRIDE_COARSEST)
        out = reader._detector.run(None, {"image": reader._detector_input(boxed[None])})[0][0]
        heat = out[0]
        local = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (
            heat >= reader.faint_threshold
        )
        ys, xs = np.nonzero(local)
        truth = [box for _, box in labels]
        kept = []
        for i in np.argsort(-heat[ys, xs])[:60]:
            y, x = ys[i], xs[i]
            cx = (x + 0.5 + out[3, y, x]) * STRIDE / scale
            cy = (y + 0.5 + out[4, y, x]) * STRIDE / scale
            bw, bh = (np.exp(out[c, y, x]) * STRIDE / scale for c in (1, 2))
            box = (cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2)
            by = [k for k in kept if np.hypot(cx - k[0], cy - k[1]) < SAME_DIE * k[2]]
            if not by:
                kept.append((cx, cy, max(bw, bh), box))
                continue
            kx, ky, _, kbox = by[0]
            mine, theirs = labelled(truth, cx, cy), labelled(truth, kx, ky)
            kind = (
                "no labelled die"
                if mine is None
                else "the same labelled die"
                if mine == theirs
                else "another labelled die"
            )
            shares.setdefault(kind, []).append(share_inside(box, kbox))
    print(f"{len(pictures)} photos; peaks dropped as the same die, by where their centre lies:")
    for kind, got in sorted(shares.items()):
        got_ = np.array(got)
        print(f"{kind}: {len(got)}")
        q = np.quantile(got_, [0, 0.1, 0.25, 0.5, 0.75, 0.9, 1])
        print(
            "  share of its box within the kept die's, quantiles 0 .1 .25 .5 .75 .9 1:",
            np.round(q, 2),
        )
        counts = Counter()
        for t in (0.5, 0.6, 0.7, 0.8, 0.9):
            counts[t] = int((got_ <= t).sum())
        print("  at most 0.5, 0.6, 0.7, 0.8, 0.9:", [counts[t] for t in (0.5, 0.6, 0.7, 0.8, 0.9)])


if __name__ == "__main__":
    main(Path(sys.argv[1]))

"""Session 59, a look (deciding nothing): the peaks ``decode`` drops as a second peak on a
die already kept (its centre within ``SAME_DIE`` of that die's size), on the epanemu photos
already read (the dev photos and the train photos outside dev at places 0, 2, 4 and 6
modulo 8, despeckled, at 640 px, as session 58's looks), at the whole-picture pass's faint
threshold and 60 hottest peaks (followed by s59_missed_640.py's copy of decode as it was before
C44). For each dropped peak: whether its centre lies in another
labelled die than the kept die's, in the same one, or in none (the labelled die whose box
holds the centre, the nearest if several do), and how much of its box (the decoded box,
before it is cut at the picture's edges) lies within the kept die's box. Run from the
repository's root:
    .venv/bin/python models/recipe/judged/looks/s59_same_die.py ../shared/data/dice
"""

import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import looked_at_640
from s59_missed_640 import peaks

from companion.vision.boxes import within
from companion.vision.evaluate import despeckle
from companion.vision.reader import DiceReader, neutral


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
        truth = [box for _, box in labels]
        for _, _, fate, (cx, cy), (bw, bh), by in peaks(reader, neutral(img))[1]:
            if fate != "same die":
                continue
            kx, ky, _, _, kbox = by
            mine, theirs = labelled(truth, cx, cy), labelled(truth, kx, ky)
            kind = (
                "no labelled die"
                if mine is None
                else "the same labelled die"
                if mine == theirs
                else "another labelled die"
            )
            box = (cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2)
            shares.setdefault(kind, []).append(float(within(np.asarray([box], float), kbox)[0]))
    print(f"{len(pictures)} photos; peaks dropped as the same die, by where their centre lies:")
    for kind, got in sorted(shares.items()):
        got_ = np.array(got)
        print(f"{kind}: {len(got)}")
        q = np.quantile(got_, [0, 0.1, 0.25, 0.5, 0.75, 0.9, 1])
        print(
            "  share of its box within the kept die's, quantiles 0 .1 .25 .5 .75 .9 1:",
            np.round(q, 2),
        )
        at_most = [int((got_ <= t).sum()) for t in (0.5, 0.6, 0.7, 0.8, 0.9)]
        print("  at most 0.5, 0.6, 0.7, 0.8, 0.9:", at_most)


if __name__ == "__main__":
    main(Path(sys.argv[1]))

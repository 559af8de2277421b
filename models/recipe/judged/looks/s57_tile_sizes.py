"""A look before a rule (session 57; decides nothing, judges no candidate): how big is each
die the tile pass keeps, against the dice the whole-picture pass found in the same picture?
Each tile-pass die, matched to a label or not, with its side over the median side of the
whole-picture pass's dice (when it found two or more). Pictures already judged: C39's
conditions (a) to (d) and (f). Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s57_tile_sizes.py ../shared/data/dice
"""

import collections
import itertools
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import earlier_judge, passes_marked

from companion.vision.evaluate import match
from companion.vision.reader import DiceReader, box_side, model_dir

c39 = earlier_judge("c39")

BINS = (0.0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1.0, 1.5, 99.0)


def where(ratio: float | None) -> str:
    if ratio is None:
        return "whole pass found under 2 dice"
    for lo, hi in itertools.pairwise(BINS):
        if lo <= ratio < hi:
            return f"{lo:.1f} to {hi:.1f} of the whole pass's median side"
    return "?"


def main(data: Path) -> None:
    cv2.setNumThreads(1)
    reader = DiceReader(model_dir(), threads=1)
    origin = passes_marked()
    sources = {
        "(a) wide shots": lambda: c39.shots(
            range(97000, 97040), 2400, 3200, (3, 9), (40, 125), lambda s: 8 * (s % 2)
        ),
        "(b) one-set wide shots": lambda: c39.one_set(range(98000, 98040)),
        "(c) phone-size shots": lambda: c39.shots(
            range(99000, 99040), 3000, 4000, (2, 7), (160, 320), lambda s: 8
        ),
        "(d) epanemu at 6x": lambda: c39.epanemu_at_6x(data),
        "(f) mosaics": lambda: c39.mosaics(data),
    }
    for name, pictures in sources.items():
        seen = collections.Counter()
        whole_true = collections.Counter()
        for img, truth in pictures():
            origin.clear()
            found = reader.read(img)
            matched = {i for i, _ in match(found, truth)}
            whole = [box_side(d.box) for d in found if origin.get(id(d)) == "whole"]
            median = float(np.median(whole)) if len(whole) >= 2 else None
            for i, d in enumerate(found):
                if origin.get(id(d)) == "whole":
                    if median is not None:
                        r = box_side(d.box) / median
                        whole_true[f"whole-pass die under 0.5 of median: {i in matched}"] += r < 0.5
                    continue
                ratio = None if median is None else box_side(d.box) / median
                true = "on a labelled die" if i in matched else "on no labelled die"
                seen[f"{true}: {where(ratio)}"] += 1
        print(name)
        for k, v in sorted(seen.items()):
            print(f"  {v:5d}  {k}")
        for k, v in sorted(whole_true.items()):
            print(f"  {v:5d}  {k}")
        sys.stdout.flush()


if __name__ == "__main__":
    main(Path(sys.argv[1]))

"""Session 72's look after C56 failed (decides nothing): C56's design read the first 40
epanemu train photos at 6x the same as the shipped reader, and its judge's (e) found two
epanemu dev photos on a starry cloth at 6x where a big die gave way to a speck read as a
die. Would the design have seen that on more of the train photos? The design's reader
(``s72_one_die_cover.py``, ONE_COVER = 0) against the shipped reader (C55) on the epanemu
train photos at 6x the design did not read (the 41st on, in name order; never a judged
split), in two halves, one a process: the pictures read otherwise, and the dice each reader
read there. Run from the repository's root, the half (0 or 1) as the second argument:
    .venv/bin/python models/recipe/judged/looks/s72_c56_on_train.py ../shared/data/dice 0
"""

import sys
from itertools import islice
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent))
import s72_one_die_cover
from s66_clumps import tally
from s66_clumps_cover import enlarged_train

from companion.vision.evaluate import load_split
from companion.vision.reader import DiceReader


def main(data: Path, half: int) -> None:
    cv2.setNumThreads(1)
    s72_one_die_cover.ONE_COVER = 0.0
    shipped, design = DiceReader(threads=1), s72_one_die_cover.OneCover(threads=1)
    names = sorted(load_split(data, "train")["epanemu"])
    count = len(names)
    pictures = islice(enlarged_train(data, "epanemu", count), 40, None)
    totals = {"shipped": [0] * 4, "design": [0] * 4}
    read = differ = 0
    for i, (img, truth) in enumerate(pictures, start=40):
        if i % 2 != half:
            continue
        read += 1
        a, b = shipped.read(img), design.read(img)
        for who, got in (("shipped", a), ("design", b)):
            totals[who] = [t + n for t, n in zip(totals[who], tally(got, truth), strict=True)]
        if a != b:
            differ += 1
            print(f"{names[i]}: shipped {tally(a, truth)}, design {tally(b, truth)}", flush=True)
    print(f"half {half}: {read} photos, {differ} read otherwise")
    for who, t in totals.items():
        right, wrong, no_die, missed = t
        print(
            f"{who}: right {right}, confident misreads {wrong}, boxes on no die {no_die}, "
            f"missed {missed}"
        )


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]))

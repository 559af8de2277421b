"""Session 66's second look (decides nothing it reports on): session 66's clump design
(``s66_clumps.py``) with its coverage test lowered, since every clump box the first look saw
read two or more tile dice over two or more labelled dice, most covering under 0.4 of it.
Does a clump box give way wrongly anywhere then? Design seeds only, which judge nothing:
the first look's heaps, shots and big dice again (120006 to 120051), dice of 320 to 640 px
(a die's pips the size of a small die; seeds 120052 to 120071), and the epanemu and
matteop65 train photos (never a judged split) enlarged 6 times as bench vision --enlarge 6
does. Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s66_clumps_cover.py ../shared/data/dice 0.15
"""

import sys
import time
from itertools import islice
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).parent.parent))
sys.path.insert(0, str(Path(__file__).parent))
import s66_clumps
from judging import earlier_judge
from s65_dense_heaps import heap
from s66_clumps import ClumpsGiveWay, tally

from companion.vision.boxes import box_side, centre_inside
from companion.vision.evaluate import load_split
from companion.vision.reader import DiceReader


def enlarged_train(data: Path, name: str, count: int):
    files = load_split(data, "train")[name]
    for fn in islice(sorted(files), count):
        img = cv2.imread(str(data / name / fn))
        img = cv2.resize(img, None, fx=6, fy=6, interpolation=cv2.INTER_LINEAR)
        yield img, [(str(v), tuple(6 * c for c in box)) for v, box in files[fn]]


def main(data: Path, cover: float) -> None:
    cv2.setNumThreads(1)
    s66_clumps.COVER = cover
    shots = earlier_judge("c36").shots
    sets = {
        "heaps": [heap(s) for s in range(120006, 120012)],
        "shots": shots(
            range(120012, 120032), 3000, 4000, (3, 13), (40, 125), lambda s: 6 * (s % 2)
        ),
        "big dice": shots(range(120032, 120052), 3000, 4000, (2, 7), (160, 320), lambda s: 8),
        "huge dice": shots(range(120052, 120072), 3000, 4000, (2, 5), (320, 640), lambda s: 8),
        "epanemu train x6": enlarged_train(data, "epanemu", 40),
        "matteop65 train x6": enlarged_train(data, "matteop65", 40),
    }
    shipped, cand = DiceReader(threads=1), ClumpsGiveWay(threads=1)
    print(f"COVER = {cover}")
    for name, pictures in sets.items():
        totals = {"shipped": np.zeros(5), "candidate": np.zeros(5)}
        for k, (img, truth) in enumerate(pictures):
            cand.gave_way, cand.seen = [], []
            for who, reader in (("shipped", shipped), ("candidate", cand)):
                t = time.perf_counter()
                found = reader.read(img)
                took = time.perf_counter() - t
                totals[who] += (*tally(found, truth), took)
            for die, good in cand.gave_way:
                truths = [lab for lab, b in truth if centre_inside(b, die.box)]
                print(
                    f"  {name} {k}: box side {box_side(die.box)} read {die.face} "
                    f"({die.confidence:.2f}) over {len(truths)} labelled dice {sorted(truths)}"
                    f" gave way to {sorted(d.face for d in good)}"
                )
        for who, t in totals.items():
            print(
                f"{name} {who}: right {t[0]:.0f}, confident misreads {t[1]:.0f}, "
                f"boxes on no die {t[2]:.0f}, missed {t[3]:.0f}; {t[4]:.1f} s in all",
                flush=True,
            )


if __name__ == "__main__":
    main(Path(sys.argv[1]), float(sys.argv[2]))

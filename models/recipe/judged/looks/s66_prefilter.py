"""Session 66's third look, after C49 failed its time bound on huge dice (decides nothing it
reports on): C49's give-way (``s66_clumps.ClumpsGiveWay``, coverage 0.15) against the same
with the tile peaks' own boxes asked to cover 0.15 of the die's box before any is read
(``PeaksCoverFirst``), and the shipped reader; each picture timed as the median of 3 reads.
Design seeds only, which judge nothing: dice of 320 to 640 px (120072 to 120091), of 160
to 320 px (120092 to 120111) and 3 of session 66's first heaps (120006 to 120008). Run from
the repository's root:
    .venv/bin/python models/recipe/judged/looks/s66_prefilter.py
"""

import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).parent.parent))
sys.path.insert(0, str(Path(__file__).parent))
import s66_clumps
from judging import earlier_judge
from s65_dense_heaps import heap
from s66_clumps import ClumpsGiveWay, area, tally

from companion.vision.reader import DiceReader


class PeaksCoverFirst(ClumpsGiveWay):
    """C49's give-way, but a die's peaks are read only where their own boxes cover COVER of
    it: a huge die's pips, tile peaks inside it, cover little and are never read."""

    def _worth_reading(self, boxes, box) -> bool:
        return sum(area(b) for b in boxes) >= s66_clumps.COVER * area(box)


def main() -> None:
    cv2.setNumThreads(1)
    s66_clumps.COVER = 0.15
    shots = earlier_judge("c36").shots
    sets = {
        "huge dice": shots(range(120072, 120092), 3000, 4000, (2, 5), (320, 640), lambda s: 8),
        "big dice": shots(range(120092, 120112), 3000, 4000, (2, 7), (160, 320), lambda s: 8),
        "heaps": (heap(s) for s in range(120006, 120009)),
    }
    readers = {
        "shipped": DiceReader(threads=1),
        "C49": ClumpsGiveWay(threads=1),
        "peaks cover first": PeaksCoverFirst(threads=1),
    }
    for name, pictures in sets.items():
        totals = {who: np.zeros(4) for who in readers}
        ratios = {who: [] for who in readers}
        for img, truth in pictures:
            took = {}
            for who, reader in readers.items():
                reader.gave_way, reader.seen = [], []
                times = []
                for _ in range(3):
                    t = time.perf_counter()
                    found = reader.read(img)
                    times.append(time.perf_counter() - t)
                took[who] = statistics.median(times)
                totals[who] += tally(found, truth)
            for who in readers:
                ratios[who].append(took[who] / took["shipped"])
        for who, t in totals.items():
            r = ratios[who]
            print(
                f"{name} {who}: right {t[0]:.0f}, confident misreads {t[1]:.0f}, "
                f"boxes on no die {t[2]:.0f}, missed {t[3]:.0f}; time against the shipped "
                f"reader's, picture by picture: median {statistics.median(r):.3f}, "
                f"{min(r):.2f} to {max(r):.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()

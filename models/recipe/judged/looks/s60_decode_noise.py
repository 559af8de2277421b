"""Session 60's look (deciding nothing): how long `decode` takes on a detector output of pure
noise, every cell's heat drawn from 0.2 to 1 (thousands of peaks at the faint threshold), with
5-cell and 40-cell boxes, 128x128 cells (a 512 px input): the worst case for its loop over the
peaks. `decode` as before C45 (5a2295f: the 60 hottest peaks), as C45 shipped it (e689ed5: the
peaks hottest first until 60 dice are kept, each compared with every kept die) and as now
(each die kept marks the cooler peaks on it at once; the same boxes). Each the median of 21
runs, one thread. Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s60_decode_noise.py
"""

import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import reader_at

from companion.vision import heat


def decode_at(commit: str):
    """`decode` of companion/vision/reader.py at ``commit``."""
    return reader_at(commit, f"reader_{commit}").decode


def main() -> None:
    decodes = {
        "before C45 (5a2295f)": decode_at("5a2295f"),
        "C45 as shipped (e689ed5)": decode_at("e689ed5"),
        "now": heat.decode,
    }
    rng = np.random.default_rng(0)
    for side in (5.0, 40.0):
        out = np.zeros((5, 128, 128), np.float32)
        out[0] = rng.uniform(0.2, 1.0, (128, 128))
        out[1:3] = np.log(side)
        for name, decode in decodes.items():
            times = []
            for _ in range(21):
                t0 = time.perf_counter()
                found = decode(out, 0.2, 1.0, (512, 512))
                times.append((time.perf_counter() - t0) * 1000)
            print(
                f"{side:.0f}-cell boxes, {name}: {len(found)} boxes, "
                f"{statistics.median(times):.2f} ms"
            )
        peaks = len(heat.decode(out, 0.2, 1.0, (512, 512), max_dice=10**6))
        print(f"  ({side:.0f}-cell boxes: {peaks} dice with no limit)")


if __name__ == "__main__":
    main()

"""Session 71, after its design (``s71_one_die_beside.py``), deciding nothing: session 70's
"peak" variant (C54, ``s70_one_die_clumps.py peak``) read on the design's 8 heaps (design
seeds 120396 to 120403), to learn how much of C54's gain asking for a peak beside the die
gives up. Prints read right, confident misreads, boxes on no die, missed and seconds,
summed. Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s71_peak_on_beside_heaps.py
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))
sys.path.insert(0, str(Path(__file__).parent))
import cv2
import numpy as np
import s70_one_die_clumps as s70
from s65_dense_heaps import heap
from s66_clumps import tally

if __name__ == "__main__":
    cv2.setNumThreads(1)
    s70.PEAK_ONLY = True
    reader = s70.OneDie(threads=1)
    totals = np.zeros(5)
    for seed in range(120396, 120404):
        img, truth = heap(seed)
        t = time.perf_counter()
        got = reader.read(img)
        totals += (*tally(got, truth), time.perf_counter() - t)
    print(f"heaps peak: {totals}")

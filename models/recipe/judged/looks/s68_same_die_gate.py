"""Session 68's second look (a design, judging nothing): session 68's first look
(``s68_heap_blockers.py``) found that nearly every heap die kept out "beside another box" was
kept out by a whole-picture box 1.9 to 13 times its side, not holding the die's centre but
within ``same_die`` of it, since ``same_die`` measures in sides of the larger box. The
design: in the tile pass, a box keeps a peak out by ``same_die`` only when its side is at
most GATE times the peak's; a larger box keeps it out only by holding its centre. Read
against the shipped reader on design seeds only: the first look's heaps (120118 to 120123),
shots, big dice and huge dice (120124 to 120183), and the first 40 epanemu and 40 matteop65
train photos (never a judged split) at 6x. Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s68_same_die_gate.py ../shared/data/dice 1.5
"""

import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).parent.parent))
sys.path.insert(0, str(Path(__file__).parent))
from judging import earlier_judge
from s65_dense_heaps import heap
from s66_clumps import tally
from s66_clumps_cover import enlarged_train

from companion.vision import tiles
from companion.vision.boxes import box_side, same_die
from companion.vision.reader import DiceReader

GATE = 1.5


def gated(peak, box) -> bool:
    return same_die(peak, box) and box_side(box) <= GATE * box_side(peak)


class Gated(DiceReader):
    """The shipped reader with the tile pass's ``same_die`` gated by size."""

    def _small_dice(self, img, look, dice):
        tiles.same_die = gated
        try:
            return super()._small_dice(img, look, dice)
        finally:
            tiles.same_die = same_die


def main(
    data: Path,
    candidate=None,
    label=None,
    heaps=range(120118, 120124),
    first=120124,
    train=40,
    only=None,
):
    """Read the design pictures: ``heaps``' seeds, then 20 seeds each of shots, big dice and
    huge dice from ``first`` on (session 69's design reads other seeds with this), then the
    first ``train`` epanemu and matteop65 train photos at 6x (all of them where ``train``
    is larger: session 72's look after C56 found what the first 40 miss). ``only``, when
    given, names the sets to read (session 73 reads the photos in a second process)."""
    cv2.setNumThreads(1)
    shots = earlier_judge("c36").shots
    s = first
    sets = {
        "heaps": (heap(s) for s in heaps),
        "shots": shots(range(s, s + 20), 3000, 4000, (3, 13), (40, 125), lambda s: 6 * (s % 2)),
        "big dice": shots(range(s + 20, s + 40), 3000, 4000, (2, 7), (160, 320), lambda s: 8),
        "huge dice": shots(range(s + 40, s + 60), 3000, 4000, (2, 5), (320, 640), lambda s: 8),
        "epanemu train x6": enlarged_train(data, "epanemu", train),
        "matteop65 train x6": enlarged_train(data, "matteop65", train),
    }
    readers = {"shipped": DiceReader(threads=1), "candidate": (candidate or Gated)(threads=1)}
    print(label or f"GATE = {GATE}")
    for name, pictures in sets.items():
        if only is not None and name not in only:
            continue
        totals = {who: np.zeros(5) for who in readers}
        differ = 0
        for img, truth in pictures:
            got = {}
            for who, reader in readers.items():
                t = time.perf_counter()
                got[who] = reader.read(img)
                totals[who] += (*tally(got[who], truth), time.perf_counter() - t)
            differ += got["shipped"] != got["candidate"]
        for who, t in totals.items():
            print(
                f"{name} {who}: right {t[0]:.0f}, confident misreads {t[1]:.0f}, "
                f"boxes on no die {t[2]:.0f}, missed {t[3]:.0f}; {t[4]:.1f} s in all",
                flush=True,
            )
        print(f"{name}: {differ} pictures read otherwise", flush=True)


if __name__ == "__main__":
    GATE = float(sys.argv[2])
    main(Path(sys.argv[1]))

"""Session 71's look after C55 (decides nothing): ``s71_heap_misses.py`` found 7 dice still
kept out by ``same_die`` alone by a whole-picture box 2.2 to 2.7 times their side that stayed
to the end, holding one labelled die's centre: the box C55 lets give way. Why did each stay?
For design heaps 120465 and 120468 (design seeds, judging nothing), the reader as shipped
(C55) with its clump pass copied and watched: for every box that stays to the end, holds
one labelled die's centre, is 2 times that die's side or more and has a missed labelled die
beside it (its centre outside, ``same_die``), what the pass saw in it at its last try: the
taken tile peaks, the result's small dice inside, whether a peak lay beside it, and what
the taken peak was read as. Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s71_one_die_stays.py
"""

import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent))
from s65_dense_heaps import heap

from companion.vision.boxes import apart, box_side, centre_inside, same_die
from companion.vision.evaluate import match
from companion.vision.reader import DiceReader
from companion.vision.tiles import CLUMP_SIDE, _beside, _covers, _enough, _kept_out


class Watched(DiceReader):
    """The shipped reader (C55), its clump pass copied, each try of a die written down."""

    def read(self, img):
        self.tries = {}
        return super().read(img)

    def _clumps_pass(self, img, look, dice, found):
        result = list(dice)
        hottest_first = [box for box, _ in sorted(found, key=lambda f: -f[1])]
        for die, heat in sorted(dice, key=lambda d: box_side(d[0].box)):
            side = box_side(die.box)
            others = [
                d.box
                for d, _ in result
                if d is not die and not (box_side(d.box) > side and centre_inside(die.box, d.box))
            ]
            taken: list = []
            held = 0  # peaks centred inside and small enough, kept out by another die
            for box in hottest_first:
                if not centre_inside(box, die.box) or box_side(box) > CLUMP_SIDE * side:
                    continue
                if any(not apart(box, t) or same_die(box, t) for t in taken):
                    continue
                if _kept_out(box, others):
                    held += 1
                    continue
                taken.append(box)
            inside = [
                d.box
                for d, _ in result
                if d is not die
                and centre_inside(d.box, die.box)
                and box_side(d.box) <= CLUMP_SIDE * side
            ]
            beside = len(taken) == 1 and _beside(die.box, taken[0], found)
            near = any(not centre_inside(b, die.box) and same_die(b, die.box) for b, _ in found)
            try_ = {
                "taken": len(taken),
                "held": held,
                "inside": len(inside),
                "beside": beside,
                "a peak near": near,
                "ratio": round(side / box_side(taken[0]), 2) if taken else None,
            }
            self.tries[tuple(die.box)] = try_
            if not _enough(taken, inside, side, beside) or not _covers(taken + inside, die.box):
                continue
            clump = self._read_kept(img, look, [(box, heat) for box in taken]) if taken else []
            try_["read"] = len(clump)
            read = [d.box for d, _ in clump]
            if _enough(read, inside, side, beside) and _covers(read + inside, die.box):
                result = [(d, h) for d, h in result if d is not die] + clump
        return result


if __name__ == "__main__":
    cv2.setNumThreads(1)
    reader = Watched(threads=1)
    for seed in (120465, 120468):
        img, truth = heap(seed)
        found = reader.read(img)
        pairs = match(found, truth)
        missed = [truth[j][1] for j in range(len(truth)) if j not in {j for _, j in pairs}]
        for d in found:
            box = tuple(d.box)
            held = [b for _, b in truth if centre_inside(b, box)]
            if len(held) != 1 or box_side(box) < 2 * box_side(held[0]):
                continue
            out = [b for b in missed if not centre_inside(b, box) and same_die(b, box)]
            if out:
                side = round(box_side(box) / box_side(held[0]), 1)
                print(
                    f"heap {seed}: box {box}, {side}x its die, read {d.face}, "
                    f"{len(out)} missed beside; last try: {reader.tries.get(box)}"
                )

"""Session 71's look after C55 (decides nothing): ``s71_heap_misses.py`` found 7 dice still
kept out by ``same_die`` alone by a whole-picture box 2.2 to 2.7 times their side that stayed
to the end, holding one labelled die's centre: the box C55 lets give way. Why did each stay?
For design heaps 120465 and 120468 (design seeds, judging nothing), the reader as shipped
(C55) with its clump pass watched (``tiles._clump_in`` and the tile dice read): for every
box that stays to the end, holds one labelled die's centre, is 2 times that die's side or
more and has a missed labelled die beside it (its centre outside, ``same_die``), what the
pass saw in it at its last try: the taken tile peaks, the result's small dice inside,
whether a peak lay beside it, and what the taken peak was read as. Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s71_one_die_stays.py
"""

import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent))
from s65_dense_heaps import heap

from companion.vision import tiles
from companion.vision.boxes import box_side, centre_inside, same_die
from companion.vision.evaluate import match
from companion.vision.reader import DiceReader
from companion.vision.tiles import CLUMP_SIDE, _beside, _clump_in, _kept_out


class Watched(DiceReader):
    """The shipped reader (C55), each try of its clump pass at a die written down: the
    pass's own counting (``tiles._clump_in``) watched, and the tile dice it reads."""

    def read(self, img):
        self.tries, self.found, self.trying = {}, [], None
        return super().read(img)

    def _clumps_pass(self, img, look, dice, found):
        self.found = found
        clump_in = tiles._clump_in
        tiles._clump_in = self._clump_in
        try:
            return super()._clumps_pass(img, look, dice, found)
        finally:
            tiles._clump_in = clump_in
            self.trying = None

    def _clump_in(self, die, result, hottest_first):
        taken, inside = _clump_in(die, result, hottest_first)
        side = box_side(die.box)
        others = [
            d.box
            for d, _ in result
            if d is not die and not (box_side(d.box) > side and centre_inside(die.box, d.box))
        ]
        box = die.box
        self.trying = self.tries[tuple(box)] = {
            "taken": len(taken),
            # peaks centred inside and small enough, not taken, kept out by another die
            "held": sum(
                centre_inside(b, box)
                and box_side(b) <= CLUMP_SIDE * side
                and b not in taken
                and _kept_out(b, others)
                for b in hottest_first
            ),
            "inside": len(inside),
            "beside": len(taken) == 1 and _beside(box, taken[0], self.found),
            "a peak near": any(
                not centre_inside(b, box) and same_die(b, box) for b, _ in self.found
            ),
            "ratio": round(side / box_side(taken[0]), 2) if taken else None,
        }
        return taken, inside

    def _read_kept(self, img, look, kept):
        got = super()._read_kept(img, look, kept)
        if self.trying is not None:
            self.trying["read"] = len(got)
        return got


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

"""Session 70's design after C53 (judging nothing). Session 70's look
(``s70_heap_misses.py``) found the dice a heap still loses beside another box kept out by
whole-picture boxes that stayed, 2.2 to 5 times the lost die's side, most holding one
labelled die's centre: drawn, a die and part of its neighbour boxed as one, read as the die
(or as the neighbour's face), keeping the neighbour out by ``same_die``. Such a box never
gives way as a clump, which asks for two dice. The design: a die also gives way to one tile
die read inside it (a taken peak, or a small die of the result already there) when its side
is over ``ONE_SIDE`` times that die's, with every other test of C53's pass unchanged
(``CLUMP_COVER`` of its box covered, the peak read with a face and found again); C51's freed
peaks then read the neighbour it kept out. Read against the shipped reader (C53) on design
seeds only: heaps 120328 to 120335, shots, big dice and huge dice 120336 to 120395, and the
first 40 epanemu and 40 matteop65 train photos at 6x. Two variants:
- "any": the one die a taken peak or a small die of the result already inside (its log:
  ``s70_one_die_clumps.log``). On one matteop65 train photo at 6x a 306 px box over a die
  gave way to its neighbour's box, whose centre lay just inside its edge, and the die was
  lost;
- "peak" (the second argument ``peak``): the one die a taken peak only, no die of the result
  inside (``s70_one_die_clumps_peak.log``).
Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s70_one_die_clumps.py ../shared/data/dice [peak]
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import s68_same_die_gate

from companion.vision.boxes import box_side
from companion.vision.reader import DiceReader
from companion.vision.tiles import _clump_in, _covers

ONE_SIDE = 1.6  # as AGAIN_SIDES' upper bound: a box over 1.6 times a die is not its box
PEAK_ONLY = False  # the "peak" variant: the one die a taken peak, none of the result inside


class OneDie(DiceReader):
    """The shipped reader, a die over ONE_SIDE times one tile die inside it giving way."""

    def _clumps_pass(self, img, look, dice, found):
        # the shipped pass (C52, C53; its counting now tiles._clump_in), the count of dice
        # asked for changed where marked
        result = list(dice)
        hottest_first = [box for box, _ in sorted(found, key=lambda f: -f[1])]
        for die, heat in sorted(dice, key=lambda d: box_side(d[0].box)):
            side = box_side(die.box)
            taken, inside = _clump_in(die, result, hottest_first)
            one = not PEAK_ONLY or not inside
            if not enough(taken + inside, side, one) or not _covers(taken + inside, die.box):
                continue
            clump = self._read_kept(img, look, [(box, heat) for box in taken]) if taken else []
            boxes = [d.box for d, _ in clump] + inside
            if enough(boxes, side, one) and _covers(boxes, die.box):
                result = [(d, h) for d, h in result if d is not die] + clump
        return result


def enough(boxes, side, one: bool) -> bool:
    """Two dice or more, as shipped; or, where ``one``, one over ONE_SIDE times smaller than
    the box."""
    return len(boxes) >= 2 or (one and len(boxes) == 1 and side > ONE_SIDE * box_side(boxes[0]))


if __name__ == "__main__":
    PEAK_ONLY = sys.argv[2:] == ["peak"]
    s68_same_die_gate.main(
        Path(sys.argv[1]),
        OneDie,
        f"one die gives way, ONE_SIDE = {ONE_SIDE}" + (", a taken peak only" if PEAK_ONLY else ""),
        heaps=range(120328, 120336),
        first=120336,
    )

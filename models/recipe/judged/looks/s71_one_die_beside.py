"""Session 71's design (judging nothing), after C54 failed at make test. C54 let a die give
way to one taken tile peak read inside it, its side over ``ONE_SIDE`` times the peak's
(session 70's "peak" variant, ``s70_one_die_clumps.py``), and broke C50's test: a 200 px
die holding one 80 px tile die, a big die's face seen by a tile, must stay. What session
70's look drew was different: a die and part of its neighbour boxed as one, keeping the
neighbour's tile peak out by ``same_die``. The design asks for that neighbour too: the die
gives way to the one peak only when a tile peak lies beside it, its centre outside the
die's box but ``same_die`` with it, and apart from the peak inside (another die). A big
die alone, as in C50's test, has no such peak beside it and stays. Every other test of
"peak" unchanged. Read against the shipped reader (C53) on design seeds only: heaps
120396 to 120403, shots, big dice and huge dice 120404 to 120463, and the first 40
epanemu and 40 matteop65 train photos at 6x. Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s71_one_die_beside.py ../shared/data/dice
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import s68_same_die_gate

from companion.vision.boxes import apart, box_side, centre_inside, same_die
from companion.vision.reader import DiceReader
from companion.vision.tiles import _clump_in, _covers

ONE_SIDE = 1.6  # as session 70's design


def beside(box, inner, found) -> bool:
    """Whether a peak of ``found`` lies beside ``box``: its centre outside it, ``same_die``
    with it, and apart from the peak ``inner`` inside it."""
    return any(not centre_inside(b, box) and same_die(b, box) and apart(b, inner) for b, _ in found)


class OneBeside(DiceReader):
    """The shipped reader, a die over ONE_SIDE times one taken tile peak inside it giving
    way to it when a peak lies beside it."""

    def _clumps_pass(self, img, look, dice, found):
        # the shipped pass (C52, C53; its counting now tiles._clump_in), the count of dice
        # asked for changed where marked
        result = list(dice)
        hottest_first = [box for box, _ in sorted(found, key=lambda f: -f[1])]
        for die, heat in sorted(dice, key=lambda d: box_side(d[0].box)):
            side = box_side(die.box)
            taken, inside = _clump_in(die, result, hottest_first)
            # marked: one taken peak is enough with a peak beside the die
            one = not inside and len(taken) == 1 and beside(die.box, taken[0], found)
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
    s68_same_die_gate.main(
        Path(sys.argv[1]),
        OneBeside,
        f"one die gives way with a peak beside, ONE_SIDE = {ONE_SIDE}",
        heaps=range(120396, 120404),
        first=120404,
    )

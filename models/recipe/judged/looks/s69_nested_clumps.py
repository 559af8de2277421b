"""Session 69's design (judging nothing). Session 69's look (``s69_heap_faces.py``) lost 24
dice of design heap 120191, 10 of them under one reading 6.5 times their side: two
whole-picture boxes (402 and 306 px) each read as a 4 over a patch of the heap, one inside
the other. Neither gave way as a clump (C50): a tile peak inside one lay inside the other
too, and a peak held by another die is never read for a clump, so each kept the other's
dice out. The design: the dice are taken smallest first, and a die that holds the centre
of the die giving way and is larger than it keeps none of its peaks out (variant "nested");
and with it, a die's clump counts, towards two dice and ``CLUMP_COVER``, the small dice of
the result already centred in it (variant "nested+read"), so a box whose dice an inner
clump already read gives way too. Read against the shipped reader on design seeds only:
heaps 120184 to 120191 (read by the look), shots, big dice and huge dice 120192 to 120251,
and the first 40 epanemu and 40 matteop65 train photos at 6x. Run from the repository's
root:
    .venv/bin/python models/recipe/judged/looks/s69_nested_clumps.py ../shared/data/dice nested
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import s68_same_die_gate

from companion.vision.boxes import box_side
from companion.vision.reader import DiceReader
from companion.vision.tiles import _clump_in, _covers

VARIANT = "nested"


class Nested(DiceReader):
    """The shipped reader, its clumps given way smallest first, never kept out by a larger
    die holding the clump's centre."""

    def _clumps_give_way(self, img, look, dice, found):
        result = list(dice)
        hottest_first = [box for box, _ in sorted(found, key=lambda f: -f[1])]
        for die, heat in sorted(dice, key=lambda d: box_side(d[0].box)):
            # the shipped pass's counting (tiles._clump_in); "nested" counts no small dice
            # already read inside
            taken, inside = _clump_in(die, result, hottest_first)
            if VARIANT != "nested+read":
                inside = []
            if len(taken) + len(inside) < 2 or not _covers(taken + inside, die.box):
                continue
            clump = self._read_kept(img, look, [(box, heat) for box in taken]) if taken else []
            boxes = [d.box for d, _ in clump] + inside
            if len(boxes) >= 2 and _covers(boxes, die.box):
                result = [(d, h) for d, h in result if d is not die] + clump
        return result


if __name__ == "__main__":
    VARIANT = sys.argv[2]
    s68_same_die_gate.main(
        Path(sys.argv[1]), Nested, VARIANT, heaps=range(120184, 120192), first=120192
    )

"""Session 72's design (judging nothing), after session 71's look (``s71_one_die_stays.py``):
a whole-picture box 2.74 times the one tile die read inside it, with a tile peak beside it,
stayed though C55's test held, because one die covers less than ``CLUMP_COVER`` (0.15) of a
box over about 2.6 times its side; so the neighbour it kept out was never read. The design:
where one tile die alone is enough (C55: a peak beside the box, the die under 1 /
``ONE_SIDE`` of its side), that die need cover only ``ONE_COVER`` of the box. Every other
test as shipped, and where two or more dice count, ``CLUMP_COVER`` as shipped. In the
shipped pass ``_covers`` is only asked once ``_enough`` held, so one box to cover is
exactly C55's one-die case. Read against the shipped reader (C55) on design seeds only:
heaps 120464 to 120479 (120464 to 120471 read by session 71's looks), shots, big dice and
huge dice 120480 to 120539, and the first 40 epanemu and 40 matteop65 train photos at 6x.
Run from the repository's root, ONE_COVER as the second argument:
    .venv/bin/python models/recipe/judged/looks/s72_one_die_cover.py ../shared/data/dice 0
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import s68_same_die_gate

from companion.vision import tiles
from companion.vision.boxes import area
from companion.vision.reader import DiceReader

ONE_COVER = 0.0  # set from the command line


def covers(boxes: list, box) -> bool:
    """``tiles._covers``, one box asked to cover only ``ONE_COVER``."""
    share = ONE_COVER if len(boxes) == 1 else tiles.CLUMP_COVER
    return sum(map(area, boxes)) >= share * area(box)


class OneCover(DiceReader):
    """The shipped reader, the one tile die of C55's case asked to cover ``ONE_COVER``."""

    def _clumps_pass(self, img, look, dice, found):
        shipped = tiles._covers
        tiles._covers = covers
        try:
            return super()._clumps_pass(img, look, dice, found)
        finally:
            tiles._covers = shipped


if __name__ == "__main__":
    ONE_COVER = float(sys.argv[2])
    s68_same_die_gate.main(
        Path(sys.argv[1]),
        OneCover,
        f"one die covers ONE_COVER = {ONE_COVER}",
        heaps=range(120464, 120480),
        first=120480,
    )

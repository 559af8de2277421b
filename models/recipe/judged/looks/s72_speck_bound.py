"""Session 72's second design (judging nothing), after ``s72_no_die_at_6x.py``: of the
4,394 boxes on no labelled die the shipped reader (C55) gave in the 771 epanemu train
photos at 6x, 4,388 lie outside every labelled die, 4,093 are 4 to 12 px in the photo's
own pixels (24 to 72 px at 6x) and 4,343 are read with a face: a tile reading the table's
specks as dice, beside labelled dice of median side 420 px at 6x (5% under 132 px). Dice
at one table are about one size. The design: a tile peak is taken by the tile pass only
where its side is at least SPECK times the median side of the whole-picture pass's dice
read with a face (none asked where that pass read none with a face). Two values side by
side, in two processes.
Read against the shipped reader on design seeds only: heaps 120540 to 120555, shots, big
dice and huge dice 120556 to 120615, and every epanemu and matteop65 train photo at 6x
(the lesson of C56). Run from the repository's root, SPECK as the second argument:
    .venv/bin/python models/recipe/judged/looks/s72_speck_bound.py ../shared/data/dice 0.33
"""

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
import s68_same_die_gate

from companion.vision.boxes import box_side
from companion.vision.reader import DiceReader

SPECK = 0.33  # set from the command line


class SpeckBound(DiceReader):
    """The shipped reader, a tile peak under SPECK times the median side of the
    whole-picture dice read with a face not taken by the tile pass."""

    def _small_dice(self, img, look, dice):
        read = [box_side(d.box) for d, _ in dice if d.value is not None]
        if not read:
            return super()._small_dice(img, look, dice)
        bound = self.bound(read)
        shipped = self._tile_peaks

        def tile_peaks(look):
            return [(b, h, small and box_side(b) >= bound) for b, h, small in shipped(look)]

        self._tile_peaks = tile_peaks
        try:
            return super()._small_dice(img, look, dice)
        finally:
            del self._tile_peaks

    def bound(self, read: list) -> float:
        """The least side of a tile peak taken, from the sides ``read`` (session 73's
        design, ``s73_speck_bound_min.py``, measures them otherwise)."""
        return SPECK * float(np.median(read))


if __name__ == "__main__":
    SPECK = float(sys.argv[2])
    s68_same_die_gate.main(
        Path(sys.argv[1]),
        SpeckBound,
        f"a tile peak at least SPECK = {SPECK} times the whole-picture dice's median side",
        heaps=range(120540, 120556),
        first=120556,
        train=1000,
    )

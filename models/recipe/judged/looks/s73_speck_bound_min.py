"""Session 73's design (judging nothing), after the look ``s73_table_die_size.py``: session
72's bound on specks (``s72_speck_bound.py``, a tile peak taken only at SPECK times the
median side of the whole-picture dice read with a face) lost dice in heaps, and not to
clumps alone: in the 16 design heaps the look read, 405 of the 490 whole-picture dice read
with a face held one labelled die's centre (81 held two or more, clumps, and 4 none), but
the pass boxes a heap's die at 79 px and more where the tiles read dice right at 36 px
and more (labelled medians 62 to 68 px), so the medians were 97 to 153 px. The design
measures the table's dice by the smallest side the whole-picture pass read with a face
instead (79 to 117 px there): a tile peak is taken only at SPECK times that side or more
(none asked where that pass read no die with a face). Two values, 0.33 then 0.25, each
read in two processes.
Read against the shipped reader on design seeds only: heaps 120616 to 120631, shots, big
dice and huge dice 120632 to 120691, and every epanemu and matteop65 train photo at 6x.
Run from the repository's root, SPECK as the second argument, and as the third "photos"
(the epanemu train photos) or "rest" (the others), one process each:
    .venv/bin/python models/recipe/judged/looks/s73_speck_bound_min.py ../shared/data/dice 0.33 rest
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))
sys.path.insert(0, str(Path(__file__).parent))
import s68_same_die_gate
from s72_speck_bound import SpeckBound

SPECK = 0.33  # set from the command line
PHOTOS = ("epanemu train x6",)
REST = ("heaps", "shots", "big dice", "huge dice", "matteop65 train x6")


class SpeckBoundMin(SpeckBound):
    """Session 72's design's reader (the shipped reader, a tile peak under a bound not
    taken by the tile pass), the bound SPECK times the smallest side of the whole-picture
    dice read with a face."""

    def bound(self, read: list) -> float:
        return SPECK * min(read)


if __name__ == "__main__":
    SPECK = float(sys.argv[2])
    s68_same_die_gate.main(
        Path(sys.argv[1]),
        SpeckBoundMin,
        f"a tile peak at least SPECK = {SPECK} times the whole-picture dice's smallest side",
        heaps=range(120616, 120632),
        first=120632,
        train=1000,
        only=PHOTOS if sys.argv[3] == "photos" else REST,
    )

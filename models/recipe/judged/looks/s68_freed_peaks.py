"""Session 68's third look (a design, judging nothing). The second look's design
(``s68_same_die_gate.py``: a box over 1.5 times a peak's side keeps it out only by holding
its centre) read 62 more heap dice right, but also read specks just outside a big die at 6x
as dice (2 more boxes on no die in 40 epanemu train photos). Session 68's first look found
40 of the 63 heap dice kept out beside another box kept out by a box that later gave way
(C50's clumps). This design leaves the keeping loop as shipped and, after the clumps give
way, reads the tile peaks that a die which gave way had kept out: those not read yet, taken
hottest first, kept out by no die of the result (``centre_inside`` or ``same_die``, as
shipped) nor by one taken before, and keeps those read with a face and found again. Where
no die gives way, nothing changes. Design seeds and photos as the second look's. Run from
the repository's root:
    .venv/bin/python models/recipe/judged/looks/s68_freed_peaks.py ../shared/data/dice
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import s68_same_die_gate
from s68_heap_blockers import Blocked

from companion.vision.boxes import centre_inside, same_die


def keeps_out(box, peak) -> bool:
    return centre_inside(peak, box) or same_die(peak, box)


class Freed(Blocked):
    """The shipped reader, reading after the clumps give way the peaks a die that gave way
    had kept out."""

    def _clumps_give_way(self, img, look, dice, found):
        result = super()._clumps_give_way(img, look, dice, found)
        gone = [d.box for d, _ in dice if not any(d is r for r, _ in result)]
        if not gone:
            return result
        taken = [d.box for d, _ in result]
        read = set(self.kept)
        more = []
        for box, heat in sorted(found, key=lambda f: -f[1]):
            if tuple(box) in read or not any(keeps_out(g, box) for g in gone):
                continue
            if any(keeps_out(t, box) for t in taken):
                continue
            more.append((box, heat))
            taken.append(box)
        got = self._read_each(img, [box for box, _ in more])
        return result + [
            (d, heat)
            for (_, heat), d in zip(more, got, strict=True)
            if d is not None and d.value is not None and self._found_again(look, d.box)
        ]


if __name__ == "__main__":
    s68_same_die_gate.main(Path(sys.argv[1]), Freed, "freed peaks")

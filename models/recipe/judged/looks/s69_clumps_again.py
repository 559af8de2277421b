"""Session 69's look after C52 (a design, judging nothing). In judging heap 111119 C52 read 6
fewer right than the reader before it: clump boxes that overlap without either holding the
other's centre still keep each other's peaks out, so in one pass a box tried early stays
beside a neighbour that gives way after it. The design: after C52's pass, the dice that
stayed are tried again, pass after pass, until a pass lets none give way (at most
``PASSES``). Read against the shipped reader (C52) on design seeds only: heaps 120252 to
120259, shots, big dice and huge dice 120260 to 120319, and the first 40 epanemu and 40
matteop65 train photos at 6x. Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s69_clumps_again.py ../shared/data/dice
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import s68_same_die_gate

from companion.vision.reader import DiceReader

PASSES = 5


class Again(DiceReader):
    """The shipped reader, its clumps tried again until none gives way."""

    def _clumps_give_way(self, img, look, dice, found):
        result = super()._clumps_give_way(img, look, dice, found)
        for _ in range(PASSES - 1):
            stayed = [(d, h) for d, h in result if any(d is o for o, _ in dice)]
            added = [(d, h) for d, h in result if not any(d is o for o, _ in dice)]
            again = super()._clumps_give_way(img, look, stayed + added, found)
            if len(again) == len(result) and all(any(d is o for o, _ in result) for d, _ in again):
                break
            result = again
        return result


if __name__ == "__main__":
    s68_same_die_gate.main(
        Path(sys.argv[1]), Again, "clumps tried again", heaps=range(120252, 120260), first=120260
    )

"""Session 74's design (judging nothing), after the look ``s74_tile_specks.py``: at 6x the
tile pass's dice on no labelled die in the epanemu train photos (1,057, specks of the
cloth) are faint peaks (heat under 0.6 for 936) read unsure-ish (under 0.95 for 1,037),
and only 48 of them are found again by the detector with the die at 96 px at its input,
where the tile dice read right in 3x3 mosaics of train photos at 2x (real dice, small in a
big picture) are found again so for 287 of 303, and the design heaps' and shots' for 2,491
of 2,496. The design: a tile die (``_read_kept``: a kept peak's, a clump's or a freed
peak's) whose heat is under STRONG and whose confidence is under SURE stands only where the
detector finds it again with the die at CLOSE px as well (``_found_again``, AGAIN 40 as
shipped, asked first). Read against the shipped reader on design seeds only: heaps 120768
to 120783, shots, big dice and huge dice 120784 to 120843, every epanemu and matteop65
train photo at 6x, and the look's mosaics. Run from the repository's root, as the second
argument "photos" (the epanemu train photos), "rest" (the other s68 sets) or "mosaics":
    .venv/bin/python models/recipe/judged/looks/s74_close_look.py ../shared/data/dice rest
"""

import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).parent.parent))
sys.path.insert(0, str(Path(__file__).parent))
import s68_same_die_gate
from s66_clumps import tally
from s74_tile_specks import again_at, mosaics

from companion.vision.reader import DiceReader

STRONG = 0.6  # heat
SURE = 0.95  # confidence
CLOSE = 96  # px at the detector's input
PHOTOS = ("epanemu train x6",)
REST = ("heaps", "shots", "big dice", "huge dice", "matteop65 train x6")


class CloseLook(DiceReader):
    """The shipped reader, a faint tile die read less than surely also found again close."""

    def _read_kept(self, img, look, kept):
        return [
            (die, heat)
            for die, heat in super()._read_kept(img, look, kept)
            if heat >= STRONG or die.confidence >= SURE or again_at(self, look, die.box, CLOSE)
        ]


def read_mosaics(data: Path) -> None:
    """Both readers' tallies on the look's mosaics."""
    cv2.setNumThreads(1)
    readers = {"shipped": DiceReader(threads=1), "candidate": CloseLook(threads=1)}
    for name, count in (("epanemu", 40), ("matteop65", 32)):
        totals = {who: np.zeros(4) for who in readers}
        differ = 0
        for _, img, truth in mosaics(data, name, count):
            got = {who: reader.read(img) for who, reader in readers.items()}
            for who in readers:
                totals[who] += tally(got[who], truth)
            differ += got["shipped"] != got["candidate"]
        for who, t in totals.items():
            print(
                f"{name} mosaics {who}: right {t[0]:.0f}, confident misreads {t[1]:.0f}, "
                f"boxes on no die {t[2]:.0f}, missed {t[3]:.0f}",
                flush=True,
            )
        print(f"{name} mosaics: {differ} pictures read otherwise", flush=True)


if __name__ == "__main__":
    if sys.argv[2] == "mosaics":
        read_mosaics(Path(sys.argv[1]))
    else:
        s68_same_die_gate.main(
            Path(sys.argv[1]),
            CloseLook,
            f"a tile die under heat {STRONG} and confidence {SURE} also found again at {CLOSE} px",
            heaps=range(120768, 120784),
            first=120784,
            train=1000,
            only={"photos": PHOTOS, "rest": REST}[sys.argv[2]],
        )

"""A look before a rule (session 57; decides nothing, judges no candidate): the reader with
the whole-picture pass's small dice in a big picture giving way to the tile pass when the
detector does not find them again (C39's check, ``DiceReader._found_again``), against the
shipped reader, on pictures already judged: C39's conditions (b), (d) and (f). Run from
the repository's root:
    .venv/bin/python models/recipe/judged/looks/s57_give_way.py ../shared/data/dice
"""

import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import earlier_judge, passes_marked

from companion.vision.reader import DiceReader, box_side, model_dir
from companion.vision.tiles import SMALL, TILE

c39 = earlier_judge("c39")


class GiveWay(DiceReader):
    def _small_dice(self, img, look, dice):
        if max(look.shape[:2]) > TILE:
            limit = SMALL * max(look.shape[:2])
            dice = [
                (d, h)
                for d, h in dice
                if box_side(d.box) >= limit or self._found_again(look, d.box)
            ]
        return super()._small_dice(img, look, dice)


def main(data: Path) -> None:
    cv2.setNumThreads(1)
    readers = {
        "give way": GiveWay(model_dir(), threads=1),
        "shipped": DiceReader(model_dir(), threads=1),
    }
    marks = {"give way": passes_marked(GiveWay), "shipped": passes_marked()}
    sources = {
        "(b) one-set wide shots": lambda: c39.one_set(range(98000, 98040)),
        "(d) epanemu at 6x": lambda: c39.epanemu_at_6x(data),
        "(f) mosaics": lambda: c39.mosaics(data),
    }
    for name, pictures in sources.items():
        got = c39.run(readers, pictures(), marks)
        for who, t in got.items():
            keys = ("photos", "photos_right", "dice", "right", "unsure", "no_die", "tile_no_die")
            print(name, who, {k: t[k] for k in keys})
        sys.stdout.flush()


if __name__ == "__main__":
    main(Path(sys.argv[1]))

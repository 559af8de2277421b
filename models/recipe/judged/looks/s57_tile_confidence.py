"""A look before a rule (session 57; decides nothing, judges no candidate): the confidence
each die the tile pass keeps is read at, matched to a label or not, on pictures already
judged: C39's and C40's conditions (d) (epanemu at 6x) and (f) (mosaics), or C40's (a) and
(b) (rendered wide shots). Run from the repository's root, with "real" or "rendered":
    .venv/bin/python models/recipe/judged/looks/s57_tile_confidence.py ../shared/data/dice real
"""

import collections
import itertools
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import earlier_judge, passes_marked

from companion.vision.evaluate import match
from companion.vision.reader import DiceReader, model_dir

c40 = earlier_judge("c40")
c39 = c40.c39
BANDS = (0.75, 0.8, 0.85, 0.9, 0.95, 1.01)


def band(conf: float) -> str:
    for lo, hi in itertools.pairwise(BANDS):
        if conf < hi:
            return f"{lo:.2f} to {hi:.2f}"
    return "?"


def main(data: Path, which: str) -> None:
    cv2.setNumThreads(1)
    reader = DiceReader(model_dir(), threads=1)
    origin = passes_marked()
    if which == "real":
        sources = {
            "C39 (d) epanemu at 6x": lambda: c39.epanemu_at_6x(data),
            "C40 (d) epanemu at 6x": lambda: c40.epanemu_at_6x(data),
            "C39 (f) mosaics": lambda: c39.mosaics(data),
            "C40 (f) mosaics": lambda: c40.mosaics(data),
        }
    else:
        sources = {
            "C40 (a) wide shots": lambda: c40.shots(
                range(100000, 100040), 2400, 3200, (3, 9), (40, 125), lambda s: 8 * (s % 2)
            ),
            "C40 (b) one-set wide shots": lambda: c40.one_set(range(101000, 101040)),
        }
    for name, pictures in sources.items():
        seen = collections.Counter()
        for img, truth in pictures():
            origin.clear()
            found = reader.read(img)
            pairs = dict(match(found, truth))
            for i, d in enumerate(found):
                if origin.get(id(d)) != "tile":
                    continue
                if i not in pairs:
                    what = "on no labelled die"
                elif str(d.face) == truth[pairs[i]][0]:
                    what = "read right"
                else:
                    what = "read wrong"
                seen[(band(d.confidence), what)] += 1
        print(name)
        for k, v in sorted(seen.items()):
            print(f"  {v:4d}  {k[0]}  {k[1]}")
        sys.stdout.flush()


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2])

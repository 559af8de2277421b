"""A look before a rule (session 57; decides nothing, judges no candidate): the
whole-picture pass's dice under SMALL of a big picture's longer side, by their side at the
detector's 512 px input, matched to a label or not, found again (C39's check) or not.
Pictures already judged: C39's conditions (d) and (f). Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s57_whole_sizes.py ../shared/data/dice
"""

import collections
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import earlier_judge, passes_marked, small_whole_dice

from companion.vision.reader import DiceReader, box_side, model_dir

c39 = earlier_judge("c39")


def main(data: Path) -> None:
    cv2.setNumThreads(1)
    reader = DiceReader(model_dir(), threads=1)
    origin = passes_marked()
    sources = {
        "(d) epanemu at 6x": lambda: c39.epanemu_at_6x(data),
        "(f) mosaics": lambda: c39.mosaics(data),
    }
    for name, pictures in sources.items():
        seen = collections.Counter()
        for img, truth in pictures():
            longer = max(img.shape[:2])
            for d, on_die, found_again in small_whole_dice(reader, origin, img, truth):
                px = box_side(d.box) * reader.detect_size / longer
                band = f"{int(px // 2) * 2:2d} to {int(px // 2) * 2 + 2:2d} px"
                again = "found again" if found_again else "not found again"
                true = "true" if on_die else "no die"
                seen[(band, true, again)] += 1
        print(name)
        for k, v in sorted(seen.items()):
            print(f"  {v:4d}  {k[0]}  {k[1]:6s}  {k[2]}")
        sys.stdout.flush()


if __name__ == "__main__":
    main(Path(sys.argv[1]))

"""A look (session 57; decides nothing, judges no candidate): in C39's condition (f)'s
mosaics, is each whole-picture-pass die under SMALL on a seam between two photos (its box
crossing a multiple of 640 px, or within a quarter of its side of one)? By label matched,
and found again (C39's check) or not. Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s57_seams.py ../shared/data/dice
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


def on_seam(box, longer: int) -> bool:
    near = box_side(box) / 4
    for seam in range(640, longer, 640):
        for lo, hi in ((box[0], box[2]), (box[1], box[3])):
            if lo - near <= seam <= hi + near:
                return True
    return False


def main(data: Path) -> None:
    cv2.setNumThreads(1)
    reader = DiceReader(model_dir(), threads=1)
    origin = passes_marked()
    seen = collections.Counter()
    for img, truth in c39.mosaics(data):
        longer = max(img.shape[:2])
        for d, on_die, found_again in small_whole_dice(reader, origin, img, truth):
            again = "found again" if found_again else "not found again"
            true = "true" if on_die else "no die"
            seam = "on a seam" if on_seam(d.box, longer) else "off the seams"
            seen[(true, again, seam)] += 1
    for k, v in sorted(seen.items()):
        print(f"  {v:4d}  {k[0]:6s}  {k[1]:15s}  {k[2]}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))

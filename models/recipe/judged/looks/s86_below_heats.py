"""Session 86's second look (decides nothing; C71's design figures, RULE.txt): on the same
design photos as s86_side_faces.py, every pair of dice the shipped reader reads one right
under the other (sharing at least 0.6 of the narrower width, the lower box's top within 0.3
of the upper's height of its bottom), with both peaks' heats, readings, whether each is a
labelled die (L) or not (X), and the lower box's size against the upper's. Run from the
repository's root:
    .venv/bin/python models/recipe/judged/looks/s86_below_heats.py ../shared/data/dice models
"""

import sys
from pathlib import Path

import cv2

from companion.vision.evaluate import CROP_SETS, despeckle, load_split, match
from companion.vision.pictures import as_bgr, neutral
from companion.vision.reader import DiceReader


def below(a, b) -> tuple[float, float] | None:
    """(gap, shared) where box ``b`` lies right under box ``a``, else None."""
    aw, ah, bw = a[2] - a[0], a[3] - a[1], b[2] - b[0]
    shared = max(0, min(a[2], b[2]) - max(a[0], b[0])) / min(aw, bw)
    gap = (b[1] - a[3]) / ah
    return (gap, shared) if shared >= 0.6 and abs(gap) <= 0.3 else None


if __name__ == "__main__":
    data, reader = Path(sys.argv[1]), DiceReader(Path(sys.argv[2]), threads=2)
    for name, files in load_split(data, "train").items():
        if name in CROP_SETS:
            continue
        for fn in sorted(files)[:: 4 if name == "epanemu" else 1]:
            img = as_bgr(despeckle(cv2.imread(str(data / name / fn))))
            faces, look = reader._faces_from(img, None), neutral(img)
            fine = reader._read_fine(faces, look)
            passes = reader._small_dice(faces, look, reader._close_ups(faces, look, fine))
            paired = dict(match([d for d, _ in passes], files[fn]))
            for i, (a, ha) in enumerate(passes):
                for j, (b, hb) in enumerate(passes):
                    lies = below(a.box, b.box) if i != j else None
                    if lies is None:
                        continue
                    w = (b.box[2] - b.box[0]) / (a.box[2] - a.box[0])
                    h = (b.box[3] - b.box[1]) / (a.box[3] - a.box[1])
                    print(
                        f"{name}/{fn[:28]} upper {'L' if i in paired else 'X'} h{ha:.2f} "
                        f"{a.face}/{a.confidence:.2f} lower {'L' if j in paired else 'X'} "
                        f"h{hb:.2f} {b.face}/{b.confidence:.2f} gap {lies[0]:+.2f} "
                        f"share {lies[1]:.2f} w {w:.2f} h {h:.2f}"
                    )

"""Session 75's second probe (decides nothing; no rule, no candidate): is a small die left
unsure because its box sits off the die? After the shipped second look and before the
opinions, each die still unsure is found again by the detector in the picture's patch
REACH times its side about it (the die then 60 to 100 px at the detector's input), the
peak nearest its centre (within half its side) taken as its box, and read from that box,
weighed as one of three with the looks before it. Read on the epanemu and matteop65 train
photos outside dev (never a judged split), one process a reader. Run from the
repository's root, "shipped" or "probe" and REACH as the arguments:
    .venv/bin/python models/recipe/judged/looks/s75_refined_box.py ../shared/data/dice probe 4
"""

import sys
from pathlib import Path

import numpy as np

from companion.vision import cascade
from companion.vision.evaluate import evaluate
from companion.vision.reader import DiceReader, model_dir

sys.path.insert(0, str(Path(__file__).parent))
from s75_stretched_look import report

SHIPPED = cascade.Cascade._look_again
REACH = 4.0


def refined(reader, img, box):
    """The box the detector gives the die in ``box`` seen in a patch about it, or None."""
    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    h, w = img.shape[:2]
    left, top = int(max(0, cx - REACH * side)), int(max(0, cy - REACH * side))
    right, bottom = int(min(w, cx + REACH * side)), int(min(h, cy + REACH * side))
    if right - left < 8 or bottom - top < 8:
        return None
    best = None
    for b, _ in reader.detect(img[top:bottom, left:right], threshold=0.2):
        off = np.hypot((b[0] + b[2]) / 2 + left - cx, (b[1] + b[3]) / 2 + top - cy)
        if off < 0.5 * side and (best is None or off < best[0]):
            best = (off, (b[0] + left, b[1] + top, b[2] + left, b[3] + top))
    return None if best is None else best[1]


def look_again(self, img, boxes, probs):
    """The shipped second look, then each die still unsure read from its box found again."""
    probs = SHIPPED(self, img, boxes, probs)
    again = [(i, refined(self, img, boxes[i])) for i in self._unsure(probs)]
    again = [(i, b) for i, b in again if b is not None]
    if not again:
        return probs
    more = self._run([self._crop(img, b) for _, b in again])[0]
    rows = [i for i, _ in again]
    probs = probs.copy()
    probs[rows] = (probs[rows] * 2 + more) / 3
    return probs


def main(data: Path, who: str) -> None:
    if who == "probe":
        cascade.Cascade._look_again = look_again
    report(f"{who} {REACH}", evaluate(DiceReader(model_dir(), threads=1), data, "train"))


if __name__ == "__main__":
    REACH = float(sys.argv[3]) if len(sys.argv) > 3 else REACH
    main(Path(sys.argv[1]), sys.argv[2])

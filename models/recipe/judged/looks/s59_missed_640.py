"""Session 59, a look (deciding nothing): at 640 px, where does the shipped reader lose the
labelled dice it misses on epanemu photos already read (the dev photos and the train photos
outside dev at places 0, 2, 4 and 6 modulo 8, despeckled, as session 58's looks)?

For each labelled die no reported die matches (``evaluate.match``): its side, and the fate
of the hottest local maximum of the detector's heat (its 3x3 peak, as ``decode`` takes
them) whose cell lies in the inner half of the labelled box, followed through ``decode`` as
the whole-picture pass runs it (at the card's faint threshold, the 60 hottest peaks):
- "no peak": no local maximum there at a heat of 0.05 or more;
- "under faint": its heat under the faint threshold;
- "past the 60 hottest": cut by decode's ``max_dice``;
- "same die": dropped by decode as a second peak on a hotter die already kept (its centre
  within ``SAME_DIE`` of that die's size), with both sizes (a box's longer side). This is
  decode as it was before C44, which this look led to: run after C44, the reader misses
  fewer dice, but the look still follows their peaks through the old rule (``peaks``);
- "kept": decode keeps its box; then what the reader reads in that box (``_read_each``: a
  face, unsure, or nothing, "not a die") and whether the box is among the dice reported.
And, apart, what the reader reads in the labelled box itself (``read_boxes``). The log was
written by the reader before C44 (reader.py at 90e4664). Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s59_missed_640.py ../shared/data/dice
"""

import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import looked_at_640

from companion.vision.boxes import SAME_DIE
from companion.vision.evaluate import despeckle, match
from companion.vision.heat import STRIDE
from companion.vision.reader import (
    STRIDE_COARSEST,
    DiceReader,
    box_side,
    letterbox,
    neutral,
)

MOST = 60  # decode's max_dice, as the reader calls it


def heat_band(heat: float, reader: DiceReader) -> str:
    return "strong" if heat >= reader.detect_threshold else "faint"


def peaks(reader: DiceReader, look: np.ndarray):
    """The detector's output on ``look`` as the whole-picture pass letterboxes it, its scale,
    and each local maximum of heat 0.05 or more, hottest first, with its fate in ``decode``
    at the faint threshold: (cell, heat, fate, centre, (width, height), the hotter die that
    took it: its centre, size, heat and box)."""
    boxed, scale = letterbox(look, reader.detect_size, STRIDE_COARSEST)
    out = reader._detector.run(None, {"image": reader._detector_input(boxed[None])})[0][0]
    heat = out[0]
    local = heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))
    # In decode's order: the peaks at the faint threshold or over, hottest first (the 8-bit
    # detector's heat has ties, and their order is argsort's over these peaks alone), then
    # the weaker ones down to 0.05.
    faint = local & (heat >= reader.faint_threshold)
    weak = local & (heat >= 0.05) & ~faint
    ys, xs = np.nonzero(faint)
    wys, wxs = np.nonzero(weak)
    order = [(ys[i], xs[i]) for i in np.argsort(-heat[ys, xs])]
    order += [(wys[i], wxs[i]) for i in np.argsort(-heat[wys, wxs])]
    kept, listed = [], []
    taken = 0
    for y, x in order:
        h = float(heat[y, x])
        cx = (x + 0.5 + out[3, y, x]) * STRIDE / scale
        cy = (y + 0.5 + out[4, y, x]) * STRIDE / scale
        bw, bh = (float(np.exp(out[c, y, x]) * STRIDE / scale) for c in (1, 2))
        size = max(bw, bh)
        if h < reader.faint_threshold:
            listed.append(((y, x), h, "under faint", (cx, cy), (bw, bh), None))
            continue
        taken += 1
        if taken > MOST:
            listed.append(((y, x), h, "past the 60 hottest", (cx, cy), (bw, bh), None))
            continue
        by = [k for k in kept if np.hypot(cx - k[0], cy - k[1]) < SAME_DIE * k[2]]
        if by:
            listed.append(((y, x), h, "same die", (cx, cy), (bw, bh), by[0]))
        else:
            kept.append((cx, cy, size, h, (cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2)))
            listed.append(((y, x), h, "kept", (cx, cy), (bw, bh), None))
    return scale, listed


def main(data: Path) -> None:
    reader = DiceReader()
    pictures = looked_at_640(data)
    tally: Counter = Counter()
    for where, name, labels in pictures:
        img = despeckle(cv2.imread(str(data / "epanemu" / name)))
        truth = [(str(v), box) for v, box in labels]
        found = reader.read(img)
        matched = {j for _, j in match(found, truth)}
        missed = [t for j, t in enumerate(truth) if j not in matched]
        if not missed:
            continue
        h, w = img.shape[:2]
        scale, listed = peaks(reader, neutral(img))
        for value, box in missed:
            cx = (box[0] + box[2]) / 2 * scale / STRIDE
            cy = (box[1] + box[3]) / 2 * scale / STRIDE
            qx = max(1.0, (box[2] - box[0]) * scale / STRIDE / 4)
            qy = max(1.0, (box[3] - box[1]) * scale / STRIDE / 4)
            inside = [p for p in listed if abs(p[0][1] + 0.5 - cx) <= qx]
            inside = [p for p in inside if abs(p[0][0] + 0.5 - cy) <= qy]
            read = reader.read_boxes(img, [box])
            own = "not a die" if not read else ("unsure" if read[0].value is None else "face")
            own_right = bool(read) and str(read[0].value) == value
            if not inside:
                fate, detail = "no peak", ""
            else:
                _, heat, fate, (px, py), (bw, bh), by = inside[0]
                detail = f"heat {heat:.2f} size {max(bw, bh):.0f}"
                if fate == "same die":
                    detail += f" taken by a die of heat {by[3]:.2f} size {by[2]:.0f}"
                    fate = f"same die, {heat_band(heat, reader)}"
                elif fate == "kept":
                    pbox = (
                        int(max(0, px - bw / 2)),
                        int(max(0, py - bh / 2)),
                        int(min(w, px + bw / 2)),
                        int(min(h, py + bh / 2)),
                    )
                    (die,) = reader._read_each(reader._faces_from(img, None), [pbox])
                    said = "not a die" if die is None else die.face
                    reported = any(d.box == pbox for d in found)
                    detail += f" read {said}, {'reported' if reported else 'not reported'}"
                    kind = "not a die" if die is None else "unsure" if die.value is None else "face"
                    fate = (
                        f"kept, {heat_band(heat, reader)}, read {kind}, "
                        f"{'reported' if reported else 'not reported'}"
                    )
            tally[fate] += 1
            tally[
                "labelled box read right with confidence" if own_right else "labelled box not"
            ] += 1
            side = box_side(box)
            tally[
                "side " + ("under 25" if side < 25 else "25 to 40" if side < 40 else "40 up")
            ] += 1
            own += f" {read[0].face} {read[0].confidence:.2f}" if read else ""
            print(
                f"{where} {name[:40]} missed {value} side {side:.0f}: {fate} {detail}; "
                f"labelled box read: {own}"
            )
    print(f"{len(pictures)} photos")
    for kind, n in sorted(tally.items()):
        print(kind, n)


if __name__ == "__main__":
    main(Path(sys.argv[1]))

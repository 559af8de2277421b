"""A look after C40 shipped (session 57; decides nothing, judges no candidate): the boxes
the tile pass draws on no labelled die of C40's condition (d) (epanemu train photos at 6x,
already judged), each cut out with its surroundings onto one contact sheet, with its photo,
value, confidence and side. Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s57_tile_no_die.py ../shared/data/dice OUT.png
"""

import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import earlier_judge, passes_marked

from companion.vision.evaluate import load_split, match
from companion.vision.reader import DiceReader, box_side, model_dir

c40 = earlier_judge("c40")


def main(data: Path, out: Path) -> None:
    cv2.setNumThreads(1)
    reader = DiceReader(model_dir(), threads=1)
    origin = passes_marked()
    names = c40.seventh_photos(data)
    files = load_split(data, "train")["epanemu"]
    cells = []
    for name, (img, truth) in zip(names, c40.epanemu_at_6x(data), strict=True):
        origin.clear()
        found = reader.read(img)
        matched = {i for i, _ in match(found, truth)}
        for i, d in enumerate(found):
            if i in matched or origin.get(id(d)) != "tile":
                continue
            side = box_side(d.box)
            cx, cy = (d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2
            half = int(2 * side)
            x0, y0 = max(0, int(cx - half)), max(0, int(cy - half))
            crop = img[y0 : int(cy + half), x0 : int(cx + half)].copy()
            b = [int(v) for v in d.box]
            cv2.rectangle(crop, (b[0] - x0, b[1] - y0), (b[2] - x0, b[3] - y0), (0, 0, 255), 3)
            cell = cv2.resize(crop, (300, 300))
            text = f"{name[:22]} {d.value} {d.confidence:.2f} {side:.0f}px"
            cv2.putText(cell, text, (4, 16), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 255, 255), 1)
            cells.append(cell)
            labels = [box_side(b) for _, b in files[name]]
            print(
                name,
                d.value,
                round(d.confidence, 2),
                round(side),
                "labelled sides at 6x:",
                [round(6 * s) for s in labels],
            )
    rows = [
        np.hstack(
            cells[k : k + 4] + [np.zeros((300, 300, 3), np.uint8)] * (4 - len(cells[k : k + 4]))
        )
        for k in range(0, len(cells), 4)
    ]
    cv2.imwrite(str(out), np.vstack(rows))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))

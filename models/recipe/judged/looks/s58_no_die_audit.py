"""Session 58, a look (deciding nothing): the boxes the shipped reader draws on no labelled
die of epanemu photos at 640 px (``s58_whole_again_640.log``'s "no die at" lines), drawn for
a person to judge: each box numbered in its order in the log, in red, on its surroundings
(three times its side), 8 to a row, 32 to a sheet. The judgement made by eye from these
sheets is ``s58_no_die_audit.txt``. Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s58_no_die_audit.py ../shared/data/dice OUT
(the sheets are written to OUT; they hold parts of the photos, so they are not kept here).

Session 59 draws the same log's labelled dice read unsure (its "unsure N at" lines) the same
way, for ``s59_unsure_audit.txt``, with ``unsure`` after OUT.
"""

import ast
import re
import sys
from pathlib import Path

import cv2
import numpy as np

HERE = Path(__file__).parent
TILE = 180


def boxes(kind: str = "no die") -> list[tuple[str, tuple[int, int, int, int]]]:
    """Each box on no labelled die (``kind`` "no die"), or each labelled die read unsure
    ("unsure"), in the 640 px look's log: its photo's name (the first 40 characters) and the
    box."""
    marker = re.compile(" no die at " if kind == "no die" else r" unsure \d at ")
    out = []
    for line in (HERE / "s58_whole_again_640.log").read_text().splitlines():
        if marker.search(line):
            name = line.split()[1]
            out.append((name, ast.literal_eval(line.split(" at ")[1].split(" side")[0])))
    return out


def tile(img: np.ndarray, box, number: int) -> np.ndarray:
    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0)
    cx, cy, half = (x0 + x1) // 2, (y0 + y1) // 2, int(1.5 * side)
    pad = 3 * side + 10
    padded = cv2.copyMakeBorder(img, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(0, 0, 0))
    part = padded[cy + pad - half : cy + pad + half, cx + pad - half : cx + pad + half]
    part = cv2.resize(part, (TILE, TILE), interpolation=cv2.INTER_CUBIC)
    third = TILE // 3
    cv2.rectangle(part, (third, third), (2 * third, 2 * third), (0, 0, 255), 1)
    cv2.putText(part, str(number), (2, 16), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 0, 255), 2)
    return part


def main(data: Path, out: Path, kind: str = "no die") -> None:
    out.mkdir(parents=True, exist_ok=True)
    tiles = []
    for number, (name, box) in enumerate(boxes(kind)):
        (path,) = (data / "epanemu").glob(name + "*")
        tiles.append(tile(cv2.imread(str(path)), box, number))
    while len(tiles) % 8:
        tiles.append(np.zeros_like(tiles[0]))
    rows = [np.hstack(tiles[i : i + 8]) for i in range(0, len(tiles), 8)]
    for sheet, start in enumerate(range(0, len(rows), 4)):
        cv2.imwrite(str(out / f"sheet{sheet + 1}.png"), np.vstack(rows[start : start + 4]))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), *sys.argv[3:4])

"""A look after C73's verdict (deciding nothing): the dev photo C73 loses, read by the
shipped models and by C73's, every box printed and drawn (look_after.png, not in git).
Run from the repository's root:
    .venv/bin/python models/recipe/judged/c73/look_after.py ../shared/data/dice artifacts/c73/models
"""

import sys
from pathlib import Path

import cv2
import numpy as np

from companion.vision.evaluate import load_split
from companion.vision.reader import DiceReader, model_dir

LOST = "train_dice_361_jpg.rf.e195c28bcfc66a99ec4a47f860325745.jpg"


def main(data: Path, models: Path) -> None:
    labels = load_split(data, "dev")["epanemu"][LOST]
    print("labels", labels)
    img = cv2.imread(str(data / "epanemu" / LOST))
    drawn = []
    for name, folder in (("shipped", model_dir()), ("C73", models)):
        vis = img.copy()
        for d in DiceReader(folder, threads=1).read(img):
            print(name, d.box, d.face, round(d.confidence, 2))
            cv2.rectangle(vis, d.box[:2], d.box[2:], (0, 0, 255), 2)
            cv2.putText(vis, d.face, d.box[:2], cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 255), 2)
        for _, b in labels:
            cv2.rectangle(vis, b[:2], b[2:], (0, 255, 0), 1)
        drawn.append(vis)
    cv2.imwrite(str(models.parent / "look_after.png"), np.hstack(drawn))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))

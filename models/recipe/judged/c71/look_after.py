"""A look after C71's verdict (deciding nothing; (a) failed): each box the shipped reader
keeps on (a)'s photos and C71 drops, with the label it lies on. Run from the repository's
root with reader.diff applied (git apply models/recipe/judged/c71/reader.diff), then undo it
(git apply -R ...):
    .venv/bin/python models/recipe/judged/c71/look_after.py ../shared/data/dice"""

import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import earlier_judge, epanemu_train

from companion.vision.evaluate import match
from companion.vision.reader import DiceReader, model_dir

if __name__ == "__main__":
    data = Path(sys.argv[1])
    judge = earlier_judge("c71")
    cv2.setNumThreads(1)
    c71 = DiceReader(model_dir(), threads=1)
    shipped = judge.c44.c39.c37.c35.shipped_reader("ae2fc74")
    names = judge.unseen_photos(data)
    for name, (img, truth) in zip(names, epanemu_train(data, names), strict=True):
        kept = {d.box for d in c71.read(img)}
        for d in shipped.read(img):
            if d.box in kept:
                continue
            pairs = dict(match([d], truth))
            label = truth[pairs[0]][0] if pairs else None
            print(f"{name[:30]} dropped {d.face} {d.confidence:.2f} {list(d.box)} label {label}")

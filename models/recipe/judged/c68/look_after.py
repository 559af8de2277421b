"""A look after C68's verdict (deciding nothing; (b) failed on precision): the things each
detector boxes on the dev photos that are no labelled die, listed and drawn, candidate and
shipped. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c68/look_after.py \
        ../shared/data/dice artifacts/c68/models models artifacts/c68/look"""

import sys
from pathlib import Path

import cv2

from companion.vision.evaluate import CROP_SETS, load_split, match
from companion.vision.pictures import as_bgr
from companion.vision.reader import DiceReader


def extras(reader, data):
    out = {}
    for name, files in load_split(data, "dev").items():
        if name in CROP_SETS:
            continue
        for fn in sorted(files):
            img = cv2.imread(str(data / name / fn), cv2.IMREAD_UNCHANGED)
            found = reader.read(img)
            paired = {i for i, _ in match(found, files[fn])}
            out[f"{name}/{fn}"] = [found[i] for i in range(len(found)) if i not in paired]
    return out


if __name__ == "__main__":
    data, candidate, shipped, look = (Path(a) for a in sys.argv[1:5])
    look.mkdir(parents=True, exist_ok=True)
    got = {
        w: extras(DiceReader(m, threads=2), data)
        for w, m in (("C68", candidate), ("shipped", shipped))
    }
    for who, per in got.items():
        n = sum(len(v) for v in per.values())
        photos = sum(1 for v in per.values() if v)
        print(f"{who}: {n} boxes that are no labelled die, in {photos} photos")
        for photo, boxes in per.items():
            for d in boxes:
                w, h = d.box[2] - d.box[0], d.box[3] - d.box[1]
                box = [round(c) for c in d.box]
                print(f"  {photo} box {box} ({w:.0f}x{h:.0f}) read {d.face} {d.confidence:.2f}")
    for photo, boxes in got["C68"].items():
        if not boxes:
            continue
        img = as_bgr(cv2.imread(str(data / photo), cv2.IMREAD_UNCHANGED))
        for d in boxes:
            x0, y0, x1, y1 = (round(c) for c in d.box)
            cv2.rectangle(img, (x0, y0), (x1, y1), (0, 0, 255), 2)
        for d in got["shipped"][photo]:
            x0, y0, x1, y1 = (round(c) for c in d.box)
            cv2.rectangle(img, (x0 - 3, y0 - 3), (x1 + 3, y1 + 3), (255, 0, 0), 2)
        cv2.imwrite(str(look / (photo.replace("/", "__") + ".png")), img)

"""Session 59, a look (deciding nothing): at 640 px, why does the shipped reader miss the
labelled dice it misses on epanemu photos already read (the dev photos and the train photos
outside dev at places 0, 2, 4 and 6 modulo 8, despeckled, as session 58's looks)? For each
labelled die no reported die matches: its side, the hottest detector peak (at any heat down
to 0.05) whose centre lies in its box, and what the reader reads in the labelled box itself
(``read_boxes``: a face, unsure, or nothing: "not a die"). Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s59_missed_640.py ../shared/data/dice
"""

import sys
from collections import Counter
from pathlib import Path

import cv2

from companion.vision.evaluate import despeckle, load_split, match
from companion.vision.reader import DiceReader, box_side, neutral


def heat_band(heat: float | None, reader: DiceReader) -> str:
    if heat is None:
        return "no peak"
    if heat >= reader.detect_threshold:
        return "strong peak"
    if heat >= reader.faint_threshold:
        return "faint peak"
    return "peak under faint"


def main(data: Path) -> None:
    reader = DiceReader()
    dev = load_split(data, "dev")["epanemu"]
    train = load_split(data, "train")["epanemu"]
    names = sorted(train)
    pictures = [("dev", n, dev[n]) for n in sorted(dev)]
    pictures += [("train", n, train[n]) for k, n in enumerate(names) if k % 2 == 0]
    tally: Counter = Counter()
    for where, name, labels in pictures:
        img = despeckle(cv2.imread(str(data / "epanemu" / name)))
        truth = [(str(v), box) for v, box in labels]
        found = reader.read(img)
        pairs = match(found, truth)
        matched = {j for _, j in pairs}
        missed = [t for j, t in enumerate(truth) if j not in matched]
        if not missed:
            continue
        peaks = reader.detect(neutral(img), threshold=0.05)
        for value, box in missed:
            inside = [
                h
                for b, h in peaks
                if box[0] <= (b[0] + b[2]) / 2 <= box[2] and box[1] <= (b[1] + b[3]) / 2 <= box[3]
            ]
            heat = max(inside) if inside else None
            read = reader.read_boxes(img, [box])
            said = "not a die" if not read else ("unsure" if read[0].value is None else "face")
            right = bool(read) and str(read[0].value) == value
            band = heat_band(heat, reader)
            side = box_side(box)
            size = "under 25" if side < 25 else "25 to 40" if side < 40 else "40 up"
            tally[(band, said, "right" if right else "-")] += 1
            tally[("side", size)] += 1
            print(
                f"{where} {name[:40]} missed {value} side {box_side(box):.0f} "
                f"heat {'-' if heat is None else f'{heat:.2f}'} box read: {said}"
                f"{f' {read[0].face} {read[0].confidence:.2f}' if read else ''}"
            )
    print(f"{len(pictures)} photos")
    for kind, n in sorted(tally.items()):
        print(" ".join(kind), n)


if __name__ == "__main__":
    main(Path(sys.argv[1]))

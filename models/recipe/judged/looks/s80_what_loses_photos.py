"""Session 80's look (decides nothing; no rule, no candidate): what the shipped reader loses
photos to, on photos it may be looked at on (never the held-out split).

1. The epanemu and matteop65 dev photos: each die found but left unsure, with its side in
   the photo, the first classifier's best class for its box and that class's probability,
   and whether that class is the die's label; then each labelled die no box found.
   (Is an unsure die mostly a right reading held back by the threshold, or a die the
   classifier cannot tell?)
2. The epanemu train photos outside dev with 13 or more labelled dice (trained on: this
   says where crowded tables are hard, not how well the reader generalises): how many
   photos are lost to a missed die, an unsure one, a misread one or a box on no labelled
   die, and the boxes on no labelled die by whether they were read with a face.

Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s80_what_loses_photos.py ../shared/data/dice
"""

import sys
from collections import Counter
from pathlib import Path

import cv2

from companion.vision.evaluate import load_split, match
from companion.vision.reader import DiceReader


def side(box) -> int:
    return int(max(box[2] - box[0], box[3] - box[1]))


def dev_losses(reader: DiceReader, data: Path) -> None:
    sets = load_split(data, "dev")
    unsure, missed = [], []
    for name in ("epanemu", "matteop65"):
        for fn, truth in sorted(sets[name].items()):
            img = cv2.imread(str(data / name / fn))
            found = reader.read(img)
            pairs = match(found, truth)
            for i, j in pairs:
                if found[i].value is None:
                    probs, _ = reader.classify(img, [found[i].box])
                    best = reader.classes[int(probs[0].argmax())]
                    p = float(probs[0].max())
                    unsure.append((name, fn[:24], truth[j][0], best, p, side(found[i].box)))
            got = {j for _, j in pairs}
            missed += [
                (name, fn[:24], v, side(b), len(truth), len(found))
                for j, (v, b) in enumerate(truth)
                if j not in got
            ]
    print(f"1. dev photos: {len(unsure)} dice found and left unsure")
    print("   set, photo, label, best class, its probability, side px")
    for row in unsure:
        print(f"   {row[0]} {row[1]} {row[2]} {row[3]} {row[4]:.2f} {row[5]}")
    right = sum(1 for row in unsure if str(row[2]) == row[3])
    print(f"   best class is the label: {right} of {len(unsure)}")
    print(f"   {len(missed)} labelled dice found by no box (set, photo, label, side, dice, boxes)")
    for row in missed:
        print("  ", *row)


def crowded_losses(reader: DiceReader, data: Path) -> None:
    files = load_split(data, "train")["epanemu"]
    photos, dice, extra_read = Counter(), Counter(), Counter()
    missed_sides = []
    for fn, truth in sorted(files.items()):
        if len(truth) < 13:
            continue
        found = reader.read(cv2.imread(str(data / "epanemu" / fn)))
        pairs = match(found, truth)
        got, fgot = {j for _, j in pairs}, {i for i, _ in pairs}
        lost = {
            "missed": len(truth) - len(pairs),
            "unsure": sum(1 for i, _ in pairs if found[i].value is None),
            "misread": sum(1 for i, j in pairs if found[i].value not in (None, truth[j][0])),
            "extra": len(found) - len(pairs),
        }
        dice.update(labelled=len(truth), **lost)
        photos.update(photos=1, right=not any(lost.values()))
        photos.update({k: 1 for k, v in lost.items() if v})
        missed_sides += [side(b) for j, (_, b) in enumerate(truth) if j not in got]
        for i in range(len(found)):
            if i not in fgot:
                extra_read["read with a face" if found[i].value is not None else "unsure"] += 1
    print("2. epanemu train photos outside dev with 13 or more labelled dice")
    print(f"   photos: {dict(photos)}")
    print(f"   dice: {dict(dice)}")
    print(f"   boxes on no labelled die: {dict(extra_read)}")
    sides = sorted(missed_sides)
    under = sum(1 for s in sides if s < 40)
    print(f"   missed dice's sides (px): {sides}; under 40 px: {under} of {len(sides)}")


def main(data: Path) -> None:
    reader = DiceReader()
    dev_losses(reader, data)
    crowded_losses(reader, data)


if __name__ == "__main__":
    main(Path(sys.argv[1]))

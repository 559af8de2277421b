"""Session 72's look (decides nothing), after ``s72_c56_on_train.py`` counted 4,122 boxes on
no labelled die in 731 epanemu train photos read at 6x by the shipped reader (C55), about
5.6 a photo, where the same photos at their own size have few. What are they? For every
epanemu train photo outside dev at 6x (never a judged split), in two halves, one a
process: each box the reader gives that no labelled die matches, by its side in the
photo's own pixels (the 6x side / 6), whether it is read with a face or unsure, and where
it lies: its centre inside a labelled die's box (a part of a die: a pip, a side face), or
outside every one (the table, or a die the labels leave out). Then the photos with the
most. Run from the repository's root, the half (0 or 1) as the second argument:
    .venv/bin/python models/recipe/judged/looks/s72_no_die_at_6x.py ../shared/data/dice 0
"""

import sys
from collections import Counter
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent))
from s66_clumps_cover import enlarged_train

from companion.vision.boxes import box_side, centre_inside
from companion.vision.evaluate import load_split, match
from companion.vision.reader import DiceReader

SIDES = (4, 8, 12, 16, 24, 32, 48)  # the photo's own pixels


def bucket(side: float) -> str:
    """The band of ``SIDES`` a side (the photo's own pixels) falls in."""
    low = 0
    for high in SIDES:
        if side < high:
            return f"{low} to {high} px"
        low = high
    return f"{low} px or more"


def main(data: Path, half: int) -> None:
    cv2.setNumThreads(1)
    reader = DiceReader(threads=1)
    names = sorted(load_split(data, "train")["epanemu"])
    where, sides, faces, per_photo = Counter(), Counter(), Counter(), []
    photos = 0
    for i, (img, truth) in enumerate(enlarged_train(data, "epanemu", len(names))):
        if i % 2 != half:
            continue
        photos += 1
        found = reader.read(img)
        matched = {f for f, _ in match(found, truth)}
        extra = [d for k, d in enumerate(found) if k not in matched]
        per_photo.append((len(extra), names[i]))
        for d in extra:
            on_die = any(centre_inside(d.box, box) for _, box in truth)
            where["inside a labelled die" if on_die else "outside every labelled die"] += 1
            sides[bucket(box_side(d.box) / 6)] += 1
            faces["read with a face" if d.value is not None else "unsure"] += 1
    total = sum(where.values())
    print(f"half {half}: {photos} photos, {total} boxes on no labelled die")
    for name, counts in (("where", where), ("side", sides), ("read", faces)):
        print(f"  {name}: {dict(counts.most_common())}")
    per_photo.sort(reverse=True)
    print(f"  photos with none: {sum(n == 0 for n, _ in per_photo)}")
    for n, name in per_photo[:10]:
        print(f"  {n} in {name}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]))

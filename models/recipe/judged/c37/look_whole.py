"""A second look after C37's verdict (decides nothing): condition (d)'s photos read by the
shipped reader with its tile pass left out (the whole-picture pass and the close-ups only),
at 640 px and at 6x: whether the whole-picture pass reads the enlarged photo as it reads the
photo. Run from the repository's root:
    .venv/bin/python models/recipe/judged/c37/look_whole.py
"""

import collections
from pathlib import Path

import cv2

from companion.vision.evaluate import despeckle, load_split, match
from companion.vision.reader import DiceReader, box_side, model_dir

cv2.setNumThreads(1)
data = Path("../shared/data/dice")
r = DiceReader(model_dir(), threads=1)
r._small_dice = lambda img, look, dice: dice  # whole picture only
files = load_split(data, "train")["epanemu"]
st = collections.Counter()
for fn in sorted(files)[4::8][:100]:
    base = despeckle(cv2.imread(str(data / "epanemu" / fn)))
    for k in (1, 6):
        img = base if k == 1 else cv2.resize(base, None, fx=6, fy=6, interpolation=cv2.INTER_LINEAR)
        truth = [(v, tuple(k * c for c in b)) for v, b in files[fn]]
        found = r.read(img)
        pairs = match(found, truth)
        extra = len(found) - len(pairs)
        right = sum(found[i].value == truth[j][0] for i, j in pairs)
        st[f"x{k} extra"] += extra
        st[f"x{k} right"] += right
        st[f"x{k} unsure"] += sum(found[i].value is None for i, _ in pairs)
        st[f"x{k} photos_right"] += right == len(truth) and extra == 0
        if extra:
            print(
                fn[:22],
                "x",
                k,
                "extra",
                extra,
                [
                    (box_side(found[i].box) // k, found[i].face)
                    for i in range(len(found))
                    if i not in {a for a, _ in pairs}
                ],
            )
print(dict(st))

"""Session 58, a look (deciding nothing): the boxes the shipped reader draws on no die of
rendered phone-size shots (3000x4000, 2 to 6 dice of 160 to 320 px, clutter mess 8: C41's
condition (c), seeds 105000 to 105039, already judged): which pass drew each (the whole
picture's, close-ups included, or a tile's), its side, its reading, and what it lies on
(the renderer's things, each with its kind, or nothing the renderer names). Run from the
repository's root:
    .venv/bin/python models/recipe/judged/looks/s58_phone_no_die.py [OUT]
With OUT, each shot with a box on no die is drawn there (boxes on no die red, dice green).
"""

import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import passes_marked

from companion.vision import scenes
from companion.vision.evaluate import match
from companion.vision.reader import DiceReader, box_side


def main(out: Path | None) -> None:
    cv2.setNumThreads(1)
    reader = DiceReader(threads=1)
    origin = passes_marked()
    tally: Counter = Counter()
    for seed in range(105000, 105040):
        rng = np.random.default_rng(seed)
        count = int(rng.integers(2, 7))
        things: list = []
        img, dice = scenes.scene(
            rng, 3000, 4000, count=count, size_range=(160, 320), mess=8, things=things
        )
        truth = [(d.face.label, d.box) for d in dice]
        origin.clear()
        found = reader.read(img)
        matched = {i for i, _ in match(found, truth)}
        extra = [i for i in range(len(found)) if i not in matched]
        for i in extra:
            d = found[i]
            cx, cy = (d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2
            on = [t for t in things if t[0] <= cx <= t[2] and t[1] <= cy <= t[3]]
            where = "on a thing" if on else "on nothing named"
            kind = origin.get(id(d), "?")
            tally[(kind, where, "sure" if d.value is not None else "unsure")] += 1
            print(
                f"{seed} {kind} {where} box {d.box} side {box_side(d.box):.0f} "
                f"{d.face} {d.confidence:.2f}",
                flush=True,
            )
        if extra and out is not None:
            out.mkdir(parents=True, exist_ok=True)
            drawn = img.copy()
            for i, d in enumerate(found):
                colour = (0, 0, 255) if i in extra else (0, 255, 0)
                cv2.rectangle(drawn, d.box[:2], d.box[2:], colour, 8)
                cv2.putText(drawn, d.face, (d.box[0], d.box[1] - 10), 0, 3, colour, 6)
            cv2.imwrite(str(out / f"{seed}.jpg"), cv2.resize(drawn, (1000, 750)))
    for key, n in sorted(tally.items()):
        print(" ".join(key), n)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else None)

"""Session 62's look (deciding nothing): on rendered phone-size shots (3000x4000, 2 to 6 dice
of 160 to 320 px, 8 things that are not dice each, as C45's condition (c) drew them), which
of the shipped reader's boxes lie on no die, which pass found them (the whole picture or a
tile), how big they are, what they were read as, and which thing they lie on. Seeds 119820
to 119859, design seeds nothing has read. Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s62_phone_no_die.py [OUT]
OUT, if given, gets each box on no die cut out with a margin, to look at.
"""

import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).parent.parent))
import judging

from companion.vision import render
from companion.vision.evaluate import match
from companion.vision.reader import DiceReader, box_side

SEEDS = range(119820, 119860)


def nearest(box, things) -> tuple[int, float]:
    """The thing (by place) whose box's centre is nearest ``box``'s, and how far, in
    ``box``'s sides."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    far = [np.hypot((t[0] + t[2]) / 2 - cx, (t[1] + t[3]) / 2 - cy) for t in things]
    k = int(np.argmin(far))
    return k, far[k] / box_side(box)


def main(out: Path | None) -> None:
    cv2.setNumThreads(1)
    origin = judging.passes_marked()
    reader = DiceReader(threads=1)
    counts = Counter()
    for seed in SEEDS:
        rng = np.random.default_rng(seed)
        count = int(rng.integers(2, 7))
        things: list = []
        img, dice = render.scene(
            rng, 3000, 4000, count=count, size_range=(160, 320), mess=8, things=things
        )
        truth = [(d.face.label, d.box) for d in dice]
        origin.clear()
        found = reader.read(img)
        pairs = match(found, truth)
        matched = {i for i, _ in pairs}
        counts["shots"] += 1
        counts["dice"] += len(truth)
        counts["right"] += sum(1 for i, j in pairs if found[i].face == truth[j][0])
        for i, j in pairs:
            if found[i].value is not None and found[i].face != truth[j][0]:
                print(
                    f"seed {seed} misread: {truth[j][0]} read {found[i].face} "
                    f"{found[i].confidence:.2f}, {box_side(found[i].box)} px"
                )
        lost = len(truth) - len(pairs)
        if lost:
            print(f"seed {seed} missed {lost} of {len(truth)} dice")
        wrong = [i for i in range(len(found)) if i not in matched]
        counts["photos_right"] += (
            not wrong and all(found[i].face == truth[j][0] for i, j in pairs) and not lost
        )
        for i in wrong:
            d = found[i]
            k, far = nearest(d.box, things)
            where = origin.get(id(d), "?")
            counts[f"no_die_{where}"] += 1
            counts["no_die_sure" if d.value is not None else "no_die_unsure"] += 1
            print(
                f"seed {seed} no die: {where} pass, box {d.box} ({box_side(d.box)} px), read "
                f"{d.face} {d.confidence:.2f}; nearest thing {far:.2f} sides away, its box "
                f"{things[k]} ({box_side(things[k])} px)"
            )
            if out is not None:
                x0, y0, x1, y1 = d.box
                m = box_side(d.box)
                cut = img[max(0, y0 - m) : y1 + m, max(0, x0 - m) : x1 + m].copy()
                cv2.imwrite(str(out / f"{seed}_{i}_{where}_{d.face}.png"), cut)
    print(dict(counts))


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else None
    main(target)

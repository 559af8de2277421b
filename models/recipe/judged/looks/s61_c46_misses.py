"""Session 61's look after C46's verdict (deciding nothing): what the 6 boxes on no die and
the 9 confident misreads of C46's condition (a) are (rendered crowded 640x480 shots, seeds
110300 to 110339, 61 to 120 dice of 18 to 32 px; judged already, C46 not shipped). The
reader at C46's rule's commit with `decode`'s max_dice 200 (reader.diff's change, applied by
wrapping `decode`), the same models, one thread. For each box on no die: the seed, its box,
what it was read as, and the nearest die (its distance in its own size, its face); for each
misread: the label, the reading, its confidence and the die's size. Run from the repository's
root:
    .venv/bin/python models/recipe/judged/looks/s61_c46_misses.py
"""

import functools
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).parent.parent))
from judging import reader_at

from companion.vision import scenes
from companion.vision.evaluate import match


def main() -> None:
    cv2.setNumThreads(1)
    module = reader_at("4fcf8bb", "reader_c46")
    module.decode = functools.partial(module.decode, max_dice=200)
    reader = module.DiceReader(module.model_dir(), threads=1)
    for seed in range(110300, 110340):
        rng = np.random.default_rng(seed)
        count = int(rng.integers(61, 121))
        img, dice = scenes.scene(
            rng, 480, 640, count=count, size_range=(18, 32), mess=6 * (seed % 2)
        )
        truth = [(d.face.label, d.box) for d in dice]
        found = reader.read(img)
        pairs = match(found, truth)
        paired = {i for i, _ in pairs}
        for i, d in enumerate(found):
            if i in paired:
                continue
            c = np.array([(d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2])
            far = [np.hypot(*(c - t.centre)) / max(1, t.box[2] - t.box[0]) for t in dice]
            j = int(np.argmin(far))
            print(
                f"seed {seed} no die: box {d.box} read {d.face} {d.confidence:.2f}; nearest die"
                f" {far[j]:.2f} of its size away, {dice[j].face.label}, mess {6 * (seed % 2)}"
            )
        for i, j in pairs:
            d, (label, box) = found[i], truth[j]
            if d.value is not None and d.face != label:
                print(
                    f"seed {seed} misread: {label} read {d.face} {d.confidence:.2f}, die "
                    f"{box[2] - box[0]} px"
                )


if __name__ == "__main__":
    main()

"""Session 77's look (deciding nothing): The First Island's colour-dotted dice under a lamp's
colour cast.

The reader takes a strong cast out of the picture the detector sees (``pictures.neutral``),
but reads each face from the picture as it is, since a dot's colour is its face; and the
face classifier's training tints only the crops that are not dots (train.py, ``tint``), so
no dot crop it learned from carries more than the renderer's own mild tint (0.85 to 1.15 a
channel, ``scenes.lighting``). A camera's white balance takes most of a lamp's cast out, but
not always all of it. This look asks how the dots are read as a cast grows: rendered rolls
of five dot dice (The First Island's roll), each colour equally often, the same tables read
under each cast, the cast laid on the scene's light before the camera's blur, noise and JPEG
(``scenes.finish``).

Seeds 120844 to 120963 (120 tables, 600 dice), drawn for this look only.

Run from the repository's root: .venv/bin/python models/recipe/judged/looks/s77_dot_casts.py
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from companion.vision import scenes
from companion.vision.evaluate import match
from companion.vision.reader import DOT_VALUE, DiceReader
from companion.vision.render import DOT_COLOURS, Face

SEEDS = range(120844, 120964)
# Gains on blue, green and red, as a lamp's light leaves a picture its camera did not
# balance, from none to the model card's strong warm lamp (and the test's TUNGSTEN).
CASTS = {
    "none": (1.0, 1.0, 1.0),
    "warm, slight (a camera's balance nearly right)": (0.9, 0.97, 1.03),
    "warm (the model card's warm lamp)": (0.75, 0.9, 1.05),
    "warm, strong (the card's strong lamp, TUNGSTEN)": (0.55, 0.85, 1.1),
    "cool (the card's cool light)": (1.1, 0.95, 0.75),
}
COLOURS = list(DOT_COLOURS)
NAME = {v: k for k, v in DOT_VALUE.items()}


def table(seed: int, gains) -> tuple[np.ndarray, list]:
    """A table of five dot dice (colours in turn from the seed), under ``gains``."""
    rng = np.random.default_rng(seed)
    faces = [Face("dot", COLOURS[(seed + i) % 6]) for i in range(5)]
    light = scenes.lighting
    scenes.lighting = lambda r, img: light(r, img) * np.float32(gains)
    try:
        img, dice = scenes.scene(rng, 480, 640, faces=faces, size_range=(40, 60))
    finally:
        scenes.lighting = light
    return img, [(DOT_VALUE[d.face.value], d.box) for d in dice]


def is_grey(img: np.ndarray) -> bool:
    """Whether ``img`` is grey: ``scenes.finish`` turns one picture in twenty grey (a grey
    camera), where no dot's colour can be told."""
    return bool((img[..., 0] == img[..., 1]).all() and (img[..., 1] == img[..., 2]).all())


def main() -> None:
    reader = DiceReader()
    for name, gains in CASTS.items():
        print(f"{name}: gains B G R {gains}")
        tally = {True: Counter(), False: Counter()}  # by whether the picture is grey
        confused = Counter()
        unsure = Counter()
        for seed in SEEDS:
            img, truth = table(seed, gains)
            grey = is_grey(img)
            count = tally[grey]
            dice = reader.read(img)
            pairs = match(dice, truth)
            count["tables"] += 1
            count["dice"] += len(truth)
            for f, t in pairs:
                got, want = dice[f].value, truth[t][0]
                if got is None:
                    count["unsure"] += 1
                    unsure[NAME[want]] += not grey
                elif got == want:
                    count["right"] += 1
                else:
                    count["wrong"] += 1
                    confused[(NAME[want], NAME.get(got, str(got)))] += not grey
            count["missed"] += len(truth) - len(pairs)
            count["extra"] += len(dice) - len(pairs)
            count["rolls right"] += (
                sum(dice[f].value == truth[t][0] for f, t in pairs) == len(truth) == len(dice)
            )
        for grey, what in ((False, "in colour"), (True, "grey")):
            c = tally[grey]
            print(
                f"  {what}: {c['tables']} tables, {c['dice']} dice: right {c['right']}, "
                f"unsure {c['unsure']}, wrong {c['wrong']}, missed {c['missed']}; boxes on no "
                f"die {c['extra']}; rolls entirely right {c['rolls right']}"
            )
        print("  in colour, unsure by dot: " + ", ".join(f"{c} {unsure[c]}" for c in COLOURS))
        if +confused:
            print(
                "  in colour, read wrong (dot, read as): "
                + ", ".join(f"{a} as {b} {n}" for (a, b), n in (+confused).most_common())
            )


if __name__ == "__main__":
    main()

"""``companion bench numerals``: numeral dice in font files the classifier never learned.

    companion bench numerals --fonts models/recipe/heldout-fonts.txt

Each numeral 1..6 is drawn on one die a 640x480 frame, in each font family of the list
(``fonts.NumeralFonts``) and in OpenCV's own faces, and read by the shipped reader.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from companion.training import render, scenes
from companion.training.fonts import NumeralFonts
from companion.vision.reader import DiceReader, model_dir

NUMERAL_SEEDS = 20  # scenes a numeral a font family: 120 dice a family
KINDS = ("dice", "right", "unsure", "wrong", "not_one")


def bench_numerals(
    fonts: NumeralFonts, models: Path | None = None, seeds: int = NUMERAL_SEEDS
) -> dict:
    """Numeral dice drawn in ``fonts``, one die to a 640x480 frame, each of 1..6 in
    ``seeds`` scenes a font family; and the same scenes in OpenCV's own faces, the only
    numerals the shipped classifier learned. Dice read right, unsure (no value), wrong
    (another value, with confidence) and not one die seen (none, or more), by family and in
    all."""
    reader = DiceReader(models or model_dir(), threads=1)

    def read(drawn: NumeralFonts | None) -> dict:
        out = dict.fromkeys(KINDS, 0)
        for value in range(1, 7):
            for seed in range(seeds):
                rng = np.random.default_rng(9000 + seed)
                face = render.Face("numeral", value)
                img, _ = scenes.scene(rng, 480, 640, faces=[face], size_range=(50, 70), fonts=drawn)
                dice = reader.read(img)
                if len(dice) != 1:
                    kind = "not_one"
                else:
                    got = dice[0].value
                    kind = "right" if got == value else "unsure" if got is None else "wrong"
                out["dice"] += 1
                out[kind] += 1
        return out

    by_family = {name: read(one) for name, one in fonts.by_family().items()}
    total = {k: sum(f[k] for f in by_family.values()) for k in KINDS}

    def shares(c: dict) -> dict:
        return {
            **c,
            **{f"{k}_share": round(c[k] / c["dice"], 4) for k in KINDS[1:]},
        }

    return {
        "fonts": {"files": len(fonts), "families": len(fonts.families)},
        "all": shares(total),
        "opencv_faces": shares(read(None)),
        "families": {name: shares(c) for name, c in sorted(by_family.items())},
        "note": "one die a frame; wrong: another value read with confidence; not_one: no "
        "die or more than one seen",
    }

"""``companion bench numerals``: numeral dice in font files the classifier never learned.

    companion bench numerals --fonts models/recipe/heldout-fonts.txt

Each numeral 1..6 is drawn on one die a 640x480 frame, in each font family of the list
(``fonts.NumeralFonts``) and in OpenCV's own faces, and read by the shipped reader.
``bench_numeral_sets`` (``companion bench teach --fonts``) reads the same dice after each
family's set is taught.
"""

from __future__ import annotations

import contextlib
import itertools
from pathlib import Path

import numpy as np

from companion.errors import VisionError
from companion.training import render, scenes
from companion.training.fonts import NumeralFonts
from companion.vision.reader import DiceReader, model_dir

NUMERAL_SEEDS = 20  # scenes a numeral a font family: 120 dice a family
KINDS = ("dice", "right", "unsure", "wrong", "not_one")
SHOW_PLACES = 5  # shows of each numeral when a font's set is taught, as from the camera


def read_numerals(reader: DiceReader, drawn: NumeralFonts | None, seeds: int) -> dict:
    """Each numeral 1..6 drawn in ``drawn`` (None: OpenCV's faces) on one die a 640x480
    frame in ``seeds`` scenes, read by ``reader``: how many dice, and how many read right,
    unsure, wrong (another value, with confidence) and not one die seen."""
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


def bench_numeral_sets(fonts: NumeralFonts, seeds: int = NUMERAL_SEEDS) -> dict:
    """Teaching numeral dice (``companion teach --standard``): for each font family, a set
    of its numeral dice taught from rendered shows (three dice with each numeral up, in
    ``SHOW_PLACES`` places; scenes of their own), then read as ``bench_numerals`` reads
    them, before and after."""
    from companion.vision.teach import learn_standard, show_dice

    reader = DiceReader(model_dir(), threads=1)
    families, before, after = {}, dict.fromkeys(KINDS, 0), dict.fromkeys(KINDS, 0)
    for name, one in fonts.by_family().items():
        shows: dict[str, list] = {}
        for value, k in itertools.product(range(1, 7), range(SHOW_PLACES)):
            rng = np.random.default_rng(100 * value + k)
            faces = [render.Face("numeral", value)] * 3
            img, _ = scenes.scene(rng, 480, 640, faces=faces, size_range=(50, 70), fonts=one)
            with contextlib.suppress(VisionError):  # no die found: a show asked for again
                shows.setdefault(str(value), []).append(show_dice(reader, img))
        was = read_numerals(reader, one, seeds)
        try:
            now = read_numerals(DiceReader(custom=learn_standard(reader, name, shows)), one, seeds)
        except VisionError as exc:  # not taught: read as before
            now = {**was, "not_taught": exc.code}
        families[name] = {"before": was, "after": now}
        for k in KINDS:
            before[k] += was[k]
            after[k] += now[k]
    return {"before": before, "after": after, "families": families}


def bench_numerals(
    fonts: NumeralFonts, models: Path | None = None, seeds: int = NUMERAL_SEEDS
) -> dict:
    """Numeral dice drawn in ``fonts``, one die to a 640x480 frame, each of 1..6 in
    ``seeds`` scenes a font family; and the same scenes in OpenCV's own faces, the only
    numerals the shipped classifier learned. Dice read right, unsure (no value), wrong
    (another value, with confidence) and not one die seen (none, or more), by family and in
    all."""
    reader = DiceReader(models or model_dir(), threads=1)
    by_family = {name: read_numerals(reader, one, seeds) for name, one in fonts.by_family().items()}
    total = {k: sum(f[k] for f in by_family.values()) for k in KINDS}

    def shares(c: dict) -> dict:
        return {
            **c,
            **{f"{k}_share": round(c[k] / c["dice"], 4) for k in KINDS[1:]},
        }

    return {
        "fonts": {"files": len(fonts), "families": len(fonts.families)},
        "all": shares(total),
        "opencv_faces": shares(read_numerals(reader, None, seeds)),
        "families": {name: shares(c) for name, c in sorted(by_family.items())},
        "note": "one die a frame; wrong: another value read with confidence; not_one: no "
        "die or more than one seen",
    }

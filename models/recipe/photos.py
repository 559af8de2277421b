"""The labelled photos as the recipe reads them: their train rows, whole photos and
single dice, and "not a die" patches cut from the same photos.

Training only, but it needs no PyTorch: models/recipe/train.py trains on these, and
quantize.py sets the int8 classifier's ranges on crops of the same dice (so quantize.py
runs, and is tested, without PyTorch). The held-out split is never read here.
"""

from __future__ import annotations

import csv
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

from companion.training import render
from companion.training.evaluate import CROP_SETS, despeckle, is_dev
from companion.vision import pictures as P

CLASSES = ["1", "2", "3", "4", "5", "6", *(f"dot-{c}" for c in render.DOT_COLOURS), "not-a-die"]
NOT_A_DIE = CLASSES.index("not-a-die")


class Upright(np.ndarray):
    """A picture (or a crop of one) whose up is the world's up: a photo taken at a slant,
    held upright, shows a die's top face above its front face. Training keeps its dice and
    its "not a die" patches nearly upright (train.py), so the classifier can learn where the
    top face lies; the card then says to read it with its up kept (pictures.LOOKS)."""


def load_labels(
    data: Path,
    clean: bool = False,
    upright: tuple[str, ...] = (),
    leave_out: tuple[str, ...] = (),
    only: tuple[str, ...] | None = None,
):
    """{set: (folder, {filename: [(value, box)]}, clean, upright)} for train rows (split into
    train and dev by file). ``clean``: photos with salt-and-pepper noise are read cleaned.
    ``upright``: the sets whose photos are read as ``Upright`` pictures. ``leave_out``: sets
    not read at all (a source held out, to measure the recipe on it); ``only``, when given:
    the sets read, and no others."""
    if not data.is_dir():
        raise SystemExit(f"{data} is not a folder: pass the folder of photo sets (--data)")
    sets = {}
    for folder in sorted(p for p in data.iterdir() if (p / "labels.csv").exists()):
        if folder.name in leave_out or (only is not None and folder.name not in only):
            continue
        files = defaultdict(list)
        with open(folder / "labels.csv") as f:
            for row in csv.DictReader(f):
                if row["split"] != "train":
                    continue
                box = tuple(int(row[k]) for k in ("xmin", "ymin", "xmax", "ymax"))
                files[row["filename"]].append((int(row["value"]), box))
        sets[folder.name] = (folder, dict(files), clean, folder.name in upright)
    return sets


def pip_box_to_die(boxes):
    """matteop65 boxes surround the pips; estimate the whole top face from them."""
    sides = [max(b[2] - b[0], b[3] - b[1]) * 1.45 for v, b in boxes if v != 1]
    side = float(np.median(sides)) if sides else 60.0
    out = []
    for v, b in boxes:
        cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
        out.append((v, (cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2)))
    return out


def images(sets, names, dev: bool):
    """(set name, image, labelled boxes) for the train photos of ``names`` in or out of dev."""
    for name in names:
        if name not in sets:
            continue
        folder, files, clean, upright = sets[name]
        for fn, boxes in files.items():
            img = cv2.imread(str(folder / fn)) if is_dev(fn) == dev else None
            if img is not None:
                img = despeckle(img) if clean else img
                yield name, (img.view(Upright) if upright else img), boxes


def whole_photo_sets(sets) -> list[str]:
    """The sets of whole photos (tables with dice on them): every set but the crops of a
    single die (``CROP_SETS``)."""
    return [name for name in sets if name not in CROP_SETS]


def real_photos(sets, dev: bool):
    """(image, [(value, box, size_known)]) for whole photos with dice in them."""
    photos = []
    for name, img, boxes in images(sets, whole_photo_sets(sets), dev):
        if name == "matteop65":
            photos.append((img, [(v, b, False) for v, b in pip_box_to_die(boxes)]))
        else:
            photos.append((img, [(v, b, True) for v, b in boxes]))
    return photos


def real_dice(sets, dev: bool):
    """(image, box, class, jitter) for every labelled die, cropped afresh at each use, and
    fixed 'not a die' patches from the same photos."""
    rng = np.random.default_rng(7)
    dice, negs = [], []
    for img, found in real_photos(sets, dev):
        for v, b, _ in found:
            dice.append((img, b, v - 1, 0.1))
        patches = negatives(rng, img, [b for _, b, _ in found], 3)
        if isinstance(img, Upright):  # so that being upright does not tell a die from a patch
            patches = [c.view(Upright) for c in patches]
        negs.extend((c, NOT_A_DIE) for c in patches)
    for name, img, boxes in images(sets, [n for n in sets if n in CROP_SETS], dev):
        h, w = img.shape[:2]
        # the die fills the middle CROP_SETS[name] of its picture (a tomitomi3 die its
        # central 46%; a chase crop is the die)
        k = (1 - CROP_SETS[name]) / 2
        b = (w * k, h * k, w * (1 - k), h * (1 - k))
        for v, _ in boxes:
            dice.append((img, b, v - 1, 0.06))
    return dice, negs


def negatives(rng, img, boxes, count):
    """Patches that are not a die: the table, the board, or only part of a die."""
    h, w = img.shape[:2]
    sizes = [max(b[2] - b[0], b[3] - b[1]) for b in boxes] or [60]
    out = []
    for _ in range(count * 10):
        if len(out) == count:
            break
        s = float(rng.choice(sizes)) * rng.uniform(0.6, 1.5)
        x, y = rng.uniform(0, max(1, w - s)), rng.uniform(0, max(1, h - s))
        cand = (x, y, x + s, y + s)
        cx, cy = x + s / 2, y + s / 2
        # far enough from every die that no die centre is near the crop's centre
        if all(
            abs(cx - (b[0] + b[2]) / 2) > 0.6 * max(b[2] - b[0], s)
            or abs(cy - (b[1] + b[3]) / 2) > 0.6 * max(b[3] - b[1], s)
            for b in boxes
        ):
            out.append(P.crop_die(img, cand, P.CROP_SIZE))
    return out

"""Session 78's design (deciding nothing): The First Island's colour-dotted dice read from
their crops balanced by the die's own body.

Session 77's look (s77_dot_casts.py) found dot dice misread under a lamp's cast (yellow as
orange, purple as red), and C60 (judged/c60) found that the cast the reader measures on the
whole picture does not tell a lamp from the renderer's tint the classifier already reads
through: taking it out of every face cost as much in the renderer's own light as it gained
under a lamp. A dotted die's body is plain and, on most such dice, light: a white the
camera saw under the same light as its dot. This design asks whether a dot read from its
crop with the body's colour brought to grey is read better, by a reader whose classifiers,
wherever one reads a crop's best class as a dot, read that crop again balanced by its body
(a light body only; a dark one's colour is too dim to measure).

Variants, each against the reader as committed (design seeds 120964 to 121023: 60 tables of
five dot dice, s77_dot_casts.table, the same tables under each cast):
  full: the body brought to grey whatever its cast;
  over: only a body whose cast (its levels' max over min) is over OVER, brought down to
        NEUTRAL as pictures.neutral does a picture's (the first two runs only: it read as
        full did but for one light);
  dark: full, and a dark body's dot read with the picture's cast taken out where
        pictures.neutral takes it out (a cast over CAST, brought down to NEUTRAL);
  dark-any: the same with any picture cast over NEUTRAL brought down to it.
The log's first part (design3) is full and over; its second (design4) full, dark, dark-any.

Run from the repository's root: .venv/bin/python models/recipe/judged/looks/s78_dot_body.py
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from s77_dot_casts import CASTS, is_grey, table

from companion.vision.evaluate import match
from companion.vision.pictures import CAST, CROP_MARGIN, CROP_SIZE, cast_gains
from companion.vision.reader import DiceReader

SEEDS = range(120964, 121024)
RING, CENTRE = (0.28, 0.42), 0.12  # shares of the box side from the crop's centre
LIGHT = 100  # a body whose brightest channel is under this is dark: left as it is
OVER, NEUTRAL = 1.25, 1.06


def body_levels(crop: np.ndarray) -> np.ndarray | None:
    """A crop's light die body colour (B, G, R), or None where the body is not lighter than
    the dot. The dot lies at the face's centre (at most 0.3 of the side across its radius),
    the body around it: the body is the mean of the ring between RING's radii (shares of the
    box side) whose brightness lies between the ring's median and its 90th percentile (its
    brighter half, off the table a turned die's corners show; the top tenth is glare); it is
    light where the ring is brighter than the centre's disc, of radius CENTRE."""
    side = CROP_SIZE / (1 + 2 * CROP_MARGIN)
    yy, xx = np.mgrid[0:CROP_SIZE, 0:CROP_SIZE] + 0.5 - CROP_SIZE / 2
    r = np.sqrt(xx**2 + yy**2) / side
    px = crop.astype(np.float32)
    ring, centre = px[(r >= RING[0]) & (r <= RING[1])], px[r <= CENTRE]
    lum = ring.sum(1)
    if np.median(lum) <= np.median(centre.sum(1)):
        return None
    lo, hi = np.percentile(lum, [50, 90])
    keep = ring[(lum >= lo) & (lum <= hi)]
    return (keep if len(keep) else ring).mean(0).clip(1.0)


def scene_gains(img: np.ndarray, least: float) -> np.ndarray | None:
    """The gains pictures.neutral would take a picture's cast out with, where its cast is
    over ``least`` (neutral's own: CAST), brought down to NEUTRAL; None otherwise. (This
    design wrote the measure out; since C61 it is pictures.cast_gains, the same lines.)"""
    return cast_gains(img, least)


def gains_for(crop: np.ndarray, variant: str, scene=None) -> np.ndarray | None:
    level = body_levels(crop)
    if level is None or level.max() < LIGHT:
        return scene if variant.startswith("dark") else None
    cast = float(level.max() / level.min())
    if variant != "over":
        return level.mean() / level
    if cast <= OVER:
        return None
    k = 1 - np.log(NEUTRAL) / np.log(cast)
    return (level.mean() / level) ** k


class Balanced(DiceReader):
    variant = "full"
    balanced = 0
    scene = None

    def read(self, img, detail=None):
        # the picture's cast, for a dark body's dot (variants dark: neutral's CAST; dark-any:
        # any cast over NEUTRAL)
        least = CAST if self.variant == "dark" else NEUTRAL
        self.scene = scene_gains(img, least) if self.variant.startswith("dark") else None
        return super().read(img, detail)

    def _classify(self, faces, crops, looks, cast=None):
        # the crops as they are (after C61, whose reader balances them itself given a cast,
        # that reader's own reading with no cast), then this variant's balance
        probs, emb = super()._classify(faces, crops, looks)
        dots = [i for i, p in enumerate(probs) if self.classes[int(p.argmax())].startswith("dot-")]
        again, gains = [], []
        for i in dots:
            g = gains_for(crops[i], self.variant, self.scene)
            if g is not None:
                again.append(i)
                gains.append(g)
        if again:
            self.balanced += len(again)
            lit = [
                np.clip(crops[i].astype(np.float32) * g + 0.5, 0, 255).astype(np.uint8)
                for i, g in zip(again, gains, strict=True)
            ]
            p2, e2 = super()._classify(faces, lit, looks)
            probs, emb = probs.copy(), emb.copy()
            probs[again], emb[again] = p2, e2
        return probs, emb


def tally(reader, gains) -> Counter:
    c = Counter()
    for seed in SEEDS:
        img, truth = table(seed, gains)
        if is_grey(img):
            c["grey tables"] += 1
            continue
        dice = reader.read(img)
        pairs = match(dice, truth)
        c["dice"] += len(truth)
        for f, t in pairs:
            got, want = dice[f].value, truth[t][0]
            c["unsure" if got is None else "right" if got == want else "wrong"] += 1
            if got != want:  # the body the design measures on a die not read right
                light = gains_for(reader._crop(img, dice[f].box), "full") is not None
                c["not right, light body" if light else "not right, dark body"] += 1
        c["missed"] += len(truth) - len(pairs)
        c["no die"] += len(dice) - len(pairs)
        c["rolls right"] += (
            sum(dice[f].value == truth[t][0] for f, t in pairs) == len(truth) == len(dice)
        )
    return c


def main() -> None:
    # "shipped": the reader as it was when this design ran (before C61, which reads a dot's
    # crop again balanced: with no class taken for a dot, it reads as before)
    shipped = DiceReader()
    shipped._is_dot = np.zeros_like(shipped._is_dot)
    readers = {"shipped": shipped}
    for variant in ("full", "dark", "dark-any"):
        r = Balanced()
        r.variant = variant
        readers[variant] = r
    keys = (
        "dice",
        "right",
        "unsure",
        "wrong",
        "missed",
        "no die",
        "rolls right",
        "not right, light body",
        "not right, dark body",
    )
    for name, gains in CASTS.items():
        print(f"{name}: gains B G R {gains}")
        for label, reader in readers.items():
            before = getattr(reader, "balanced", 0)
            c = tally(reader, gains)
            crops = getattr(reader, "balanced", 0) - before
            print(
                f"  {label:8s} "
                + ", ".join(f"{k} {c[k]}" for k in keys)
                + f"; grey tables {c['grey tables']}"
                + (f"; crops balanced {crops}" if label != "shipped" else ""),
                flush=True,
            )


if __name__ == "__main__":
    main()

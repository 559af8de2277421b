"""What each training step sees: real dice cropped afresh with jitter, rendered crops and
scenes, hard "not a die" crops an earlier model found, and the detector's samples and targets.
Training only (train.py)."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
from photos import (
    CLASSES,
    NOT_A_DIE,
    Upright,
    images,
    negatives,
    pip_box_to_die,
    real_photos,
)

from companion.training import scenes
from companion.training.evaluate import match
from companion.vision import pictures as P
from companion.vision import reader as R
from companion.vision.heat import STRIDE

BATCH = 64  # crops in each classifier training step
# degrees an Upright crop is turned at most in training (the reader looks at P.UPRIGHT_TURN)
UPRIGHT_TILT = 15.0
# --small-dice: the crop sides (px) a real die is shrunk to before it is enlarged back to the
# crop, as the reader's crop of a die about 10 to 23 px wide looks (small_die)
SMALL_SIDES = (12, 28)


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


def scene_crops(rng, img, dice, things):
    """A rendered scene's crops: each die (jittered, labelled with its face), two patches of
    table, and each thing that is not a die (screw heads, specks, coins, tokens), boxed as a
    detector might box it; the last three "not a die"."""
    crops = [
        (P.crop_die(img, jitter(rng, d.box), P.CROP_SIZE), CLASSES.index(d.face.label))
        for d in dice
    ]
    crops.extend((c, NOT_A_DIE) for c in negatives(rng, img, [d.box for d in dice], 2))
    for b in things:
        side = max(b[2] - b[0], b[3] - b[1], 8) * rng.uniform(1.0, 1.6)
        cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
        box = (cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2)
        crops.append((P.crop_die(img, jitter(rng, box), P.CROP_SIZE), NOT_A_DIE))
    return crops


def synthetic_crops(rng, n, numerals=2, sides=0.0, fonts=None, elevation=None, styles=0.0):
    """``n`` rendered crops: pips, numerals and dots drawn 5 : ``numerals`` : 2. A ``sides``
    share of the scenes show their dice at a steeper slant with pips on the side faces.
    ``fonts`` (NumeralFonts): numerals are drawn in them too. ``elevation`` (a range of
    degrees): every scene seen from a camera that high above the table (scenes.scene).
    ``styles``: the share of scenes whose dice are of any look (``training/styles.py``:
    coloured ink on dark bodies, marbled, glitter, pastel, neon), the rest in the plain
    palette; 0 draws nothing more."""
    crops = []
    weights = ("pips",) * 5 + ("numeral",) * numerals + ("dot",) * 2
    while len(crops) < n:
        mess, things = int(rng.integers(0, 6)), []
        slanted = sometimes(rng, sides)
        body = "any" if sometimes(rng, styles) else None
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
            body=body,
        )
        crops += scene_crops(rng, img, dice, things)
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
        crops += scene_crops(rng, img, dice, things)
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


def recoloured(rng, crop):
    """``crop`` in other colours: its colour channels in another order, its hue turned, or
    its light and dark swapped (a white die with black pips becomes a black die with white
    pips), one of them or two: a die's face is told by the contrast of its pips, not their
    colours, so a red die on green felt teaches a blue one on red felt too."""
    c = np.asarray(crop)
    if rng.random() < 0.5:
        c = c[..., rng.permutation(3)]
    if rng.random() < 0.4:
        hsv = cv2.cvtColor(np.ascontiguousarray(c), cv2.COLOR_BGR2HSV)
        hsv[..., 0] = (hsv[..., 0].astype(np.int32) + int(rng.integers(1, 180))) % 180
        c = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    if rng.random() < 0.35:
        c = 255 - c
    out = np.ascontiguousarray(c)
    return out.view(type(crop)) if isinstance(crop, np.ndarray) else out


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

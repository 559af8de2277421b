"""Pictures in, tensors out: how the dice reader, and training, see a picture.

Any picture (any size, depth or channels) becomes 8-bit BGR (``as_bgr``) and loses a strong
colour cast before the detector sees it (``neutral``; a colour dot's crop is read again
balanced, ``dot_gains``); it is letterboxed to the detector's input (``letterbox``) in the
form the detector takes (``detector_input``). Each die's box
becomes a square crop (``crop_die``), seen as the classifier was trained to see it
(``far_side_up``, ``crop_looks``, ``symbol_crop``). Training imports these very functions,
so a model reads at run time the pictures it learned from.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from companion.errors import VisionError

DETECT_SIZE = 512  # the detector's input side when training (the model fixes it)
CROP_SIZE = 48  # the face classifier's input side
CROP_MARGIN = 0.12  # share of the box side added around a die before it is read
# The most a crop's linear warp shrinks a picture (about the median of the crops trained on);
# a bigger die is first shrunk with the area filter (``crop_die``).
MAX_SHRINK = 2.0
TURNS = 4  # quarter turns of each crop the classifier reads (their answers are averaged)
# How a classifier is read (dice.json "looks"): "turns", the crop in four quarter turns (a face
# is the same face turned); or "upright", for a classifier trained to keep a picture's up (an
# oblique photo shows a die's top face above its front face): the crop as it is and turned
# UPRIGHT_TURN degrees either way, all three with their up kept. Never mirrored: a mirrored
# numeral or symbol is not that face.
LOOKS = ("turns", "upright")
UPRIGHT_TURN = 10.0
# Where the camera stood (DiceReader's ``view``), so an "upright" classifier gets each die
# with its far side up. "slanted": a photo taken at a slant and held upright, whose top is the
# far side everywhere (the phone photos it learned from). "down": a camera looking straight
# down, as the device's is mounted: perspective shows each die's top face shifted away from
# the point below the camera (the picture's centre) and a side face towards it, so a die in
# the lower half of the frame shows its top face below its side face, and one at the left or
# right edge sideways. Each crop is then turned so that the direction away from the centre
# is up (the epanemu dev photos turned 180 degrees and read as "slanted" gave 29 dice of
# 268 read wrong with confidence, against 2 as they are).
VIEWS = ("slanted", "down")
# A colour cast (``neutral``): a picture whose channels' levels differ by more than CAST
# (99% of the train photos outside dev do not) is taken down to NEUTRAL (their median).
CAST = 1.3
NEUTRAL = 1.06
CAST_WIDTH = 160
NEAR_NEUTRAL = 0.55  # the most saturated pixel the cast is measured on
_POWER6 = (np.arange(256) / 255.0) ** 6  # each level's sixth power (shades of grey)
# A colour dot's crop read again balanced (``dot_gains``): its die's body is looked for in the
# ring between DOT_RING's radii around the dot (shares of the box side from the crop's
# centre), and the dot at most DOT_CENTRE from it (a dot's radius is 0.2 to 0.3 of the face);
# a body whose brightest level is under LIGHT_BODY is dark, and shows no light to go by.
DOT_RING = (0.28, 0.42)
DOT_CENTRE = 0.12
LIGHT_BODY = 100


def as_bgr(img: np.ndarray) -> np.ndarray:
    """``img`` as 8-bit BGR, the reader's one input: grey (one channel) and BGRA are
    converted, and 16-bit, float (0 to 1) or other whole-number pictures are brought to 8
    bits. A picture with no pixels, or with 2 or more than 4 channels, is a clear error."""
    if img.ndim == 3 and img.shape[2] == 1:
        img = img[:, :, 0]
    if img.ndim not in (2, 3) or (img.ndim == 3 and img.shape[2] not in (3, 4)):
        raise VisionError(
            f"a picture of shape {img.shape} is not one the reader takes: give BGR, BGRA or "
            "grey (height x width x 3, 4 or 1)",
            code="vision/bad-picture",
        )
    if img.size == 0:
        raise VisionError(f"an empty picture (shape {img.shape}): no pixels to read")
    if img.dtype != np.uint8:
        img = _eight_bit(img)
    if img.ndim == 2:
        return cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    if img.shape[2] == 4:
        return cv2.cvtColor(img, cv2.COLOR_BGRA2BGR)
    return img


def _eight_bit(img: np.ndarray) -> np.ndarray:
    """``img`` at 8 bits: 16-bit levels scaled down, floats taken as 0 to 1, booleans as
    black and white, anything else clipped to 0..255."""
    if img.dtype == np.uint16:
        return (img // 257).astype(np.uint8)
    if img.dtype == np.bool_:
        return img.astype(np.uint8) * 255
    if np.issubdtype(img.dtype, np.floating):
        return np.clip(np.nan_to_num(img) * 255 + 0.5, 0, 255).astype(np.uint8)
    return np.clip(img, 0, 255).astype(np.uint8)


def cast_levels(img: np.ndarray) -> np.ndarray | None:
    """The levels of ``img``'s blue, green and red (BGR), by shades of grey (the channels'
    sixth-power means) on its near-neutral pixels, the picture shrunk to ``CAST_WIDTH``:
    not dark, and no more saturated than ``NEAR_NEUTRAL`` (a white die under a strong warm
    lamp is still kept; green, blue or red felt is not), so a coloured table in white
    light is not taken for a cast. None when hardly anything is near-neutral: then a cast
    cannot be told from the table's colour."""
    h, w = img.shape[:2]
    width = min(w, CAST_WIDTH)
    small = cv2.resize(img, (width, max(1, round(h * width / w))), interpolation=cv2.INTER_LINEAR)
    channels = cv2.split(small)
    top = cv2.max(cv2.max(channels[0], channels[1]), channels[2]).astype(np.int16)
    low = cv2.min(cv2.min(channels[0], channels[1]), channels[2]).astype(np.int16)
    keep = (top >= 64) & (100 * (top - low) <= round(100 * NEAR_NEUTRAL) * top)
    if np.count_nonzero(keep) < 0.02 * keep.size:
        return None
    level = np.array([_POWER6[c[keep]].mean() for c in channels]) ** (1 / 6)
    return level.clip(1e-3)


def cast_gains(img: np.ndarray, least: float) -> np.ndarray | None:
    """The channel gains (BGR) that bring ``img``'s colour cast (its ``cast_levels`` apart
    by their max over min) down to ``NEUTRAL``, where the cast is over ``least``; None
    where it is not, or cannot be measured."""
    level = cast_levels(img)
    if level is None:
        return None
    cast = float(level.max() / level.min())
    if cast <= least:
        return None
    # Gains that leave the cast at NEUTRAL: the channels' levels to the power 1 - k meet.
    k = 1 - np.log(NEUTRAL) / np.log(cast)
    return (level.mean() / level) ** k


def neutral(img: np.ndarray) -> np.ndarray:
    """``img`` with a strong colour cast (a warm lamp, a green fluorescent tube) taken down to
    a normal picture's; a picture with no more cast than ``CAST`` (its ``cast_levels``
    apart by that ratio at most, or unmeasurable) is returned untouched. Under a warm lamp
    the detector boxes the table as dice, and under a cool one it finds fewer dice
    (measured in the model card)."""
    gains = cast_gains(img, CAST)
    if gains is None:
        return img
    lut = np.clip(np.arange(256, dtype=np.float32)[:, None] * gains + 0.5, 0, 255).astype(np.uint8)
    return cv2.merge([cv2.LUT(img[..., c], lut[:, c]) for c in range(3)])


@functools.lru_cache(maxsize=8)
def _dot_rings(size: int) -> tuple[np.ndarray, np.ndarray]:
    """The masks of a ``size`` crop's body ring and dot centre (``body_level``), the box
    taken as ``crop_die`` frames it with CROP_MARGIN (a second look's crop, framed with
    another margin, is measured the same: its ring lies a little in or out)."""
    side = size / (1 + 2 * CROP_MARGIN)
    yy, xx = np.mgrid[0:size, 0:size] + 0.5 - size / 2
    r = np.sqrt(xx**2 + yy**2) / side
    return (r >= DOT_RING[0]) & (r <= DOT_RING[1]), r <= DOT_CENTRE


def body_level(crop: np.ndarray) -> np.ndarray | None:
    """The colour (BGR levels) of a dotted die's light body in its square crop, or None
    where the body is no lighter than the dot. The dot lies at the face's centre, the body
    around it: the body's level is the mean of the ring (``DOT_RING``) pixels whose
    brightness lies between the ring's median and its 90th percentile (its brighter half,
    off the table that a turned die's corners show; the top tenth is glare), and it is light
    where the ring is brighter, by median brightness, than the centre (``DOT_CENTRE``)."""
    ring_mask, centre_mask = _dot_rings(crop.shape[0])
    px = crop.astype(np.float32)
    ring = px[ring_mask]
    lum = ring.sum(1)
    if np.median(lum) <= np.median(px[centre_mask].sum(1)):
        return None
    lo, hi = np.percentile(lum, [50, 90])
    keep = ring[(lum >= lo) & (lum <= hi)]
    return (keep if len(keep) else ring).mean(0).clip(1.0)


def dot_gains(crop: np.ndarray, picture: np.ndarray | None) -> np.ndarray | None:
    """The channel gains a colour dot's crop is read again with: its
    light body brought to grey, the die's own white showing the light it was seen in; for a
    dark body, which shows none, ``picture``'s (the gains that take the picture's measured
    cast out, ``cast_gains``; None where it has none, and the crop is read as it is)."""
    level = body_level(crop)
    if level is None or level.max() < LIGHT_BODY:
        return picture
    return level.mean() / level


def balanced(crop: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """``crop`` with its channels scaled by ``gains``, clipped to 8 bits."""
    return np.clip(crop.astype(np.float32) * gains + 0.5, 0, 255).astype(np.uint8)


def letterbox(
    img: np.ndarray, size: int = DETECT_SIZE, multiple: int | None = None
) -> tuple[np.ndarray, float]:
    """``img`` scaled to fit a ``size`` square (top-left, grey padding), and the scale used.
    With ``multiple``, the padding only rounds each side up to a multiple of it: a
    rectangle, so no time is spent on padding."""
    h, w = img.shape[:2]
    scale = size / max(h, w)
    nh, nw = max(1, round(h * scale)), max(1, round(w * scale))
    # The area filter only past 2x (640 to 512 px: 2.5 ms against 0.8). INTER_LINEAR_EXACT,
    # unlike INTER_LINEAR, gives the same bytes on x86 and ARM.
    small = cv2.resize(
        img, (nw, nh), interpolation=cv2.INTER_AREA if scale < 0.5 else cv2.INTER_LINEAR_EXACT
    )
    oh, ow = (
        (size, size)
        if multiple is None
        else (-(-nh // multiple) * multiple, -(-nw // multiple) * multiple)
    )
    if (oh, ow) == (nh, nw):
        return small, scale
    out = np.full((oh, ow, 3), 114, np.uint8)
    out[:nh, :nw] = small
    return out, scale


def to_bytes(images: np.ndarray) -> np.ndarray:
    """uint8 BGR images (N, H, W, 3) as a detector that takes bytes reads them: (N, 3, H, W),
    BGR, 0..255 (its first layer does the rest: ``models/recipe/quantize.py``)."""
    return np.ascontiguousarray(images.transpose(0, 3, 1, 2))


def to_blocks(images: np.ndarray) -> np.ndarray:
    """uint8 BGR images (N, H, W, 3), H and W even, as a detector that takes blocks reads them:
    (N, H/2, W/2, 12), each 2x2 block's four pixels row by row, each pixel's B, G, R
    (``models/recipe/quantize.py``, ``takes_blocks``)."""
    n, h, w, _ = images.shape
    # A row's two pixels in a block (6 bytes) are moved as one item: a third faster than
    # moving byte by byte (a 512x512 frame: 0.42 ms against 0.64 here), the same bytes.
    pairs = np.ascontiguousarray(images).reshape(n, h // 2, 2, w // 2, 6).view("V6")[..., 0]
    blocks = np.ascontiguousarray(pairs.transpose(0, 1, 3, 2))
    return blocks.view(np.uint8).reshape(n, h // 2, w // 2, 12)


def to_tensor(images: np.ndarray) -> np.ndarray:
    """uint8 BGR images (N, H, W, 3) to the models' float input (N, 3, H, W), RGB in 0..1."""
    # One channel at a time straight into the output: several times faster than a
    # transposed copy then a division (a 512x512 frame: about 0.5 ms against 4 here).
    out = np.empty((images.shape[0], 3, *images.shape[1:3]), np.float32)
    for c in range(3):
        np.divide(images[..., 2 - c], np.float32(255.0), out=out[:, c], dtype=np.float32)
    return out


def detector_input(session) -> tuple:
    """How a detector session takes a letterboxed frame, and its input side (a number, or a
    name where the side is free). A detector made by quantize.py takes the frame's bytes, or
    their 2x2 blocks (channels last); an older one (or a float one from training) RGB floats
    in 0..1."""
    given = session.get_inputs()[0]
    if given.type != "tensor(uint8)":
        return to_tensor, given.shape[2]
    if given.shape[-1] == 12:
        side = given.shape[1]
        return to_blocks, side * 2 if isinstance(side, int) else side
    return to_bytes, given.shape[2]


def crop_die(
    img: np.ndarray,
    box: tuple[float, float, float, float],
    size: int = CROP_SIZE,
    margin: float = CROP_MARGIN,
    shape: np.ndarray | None = None,
) -> np.ndarray:
    """A ``size`` square crop centred on ``box``, its side the box's longer side plus margins
    (a big die first shrunk with the area filter: any size of picture gives the same crop).

    ``shape``, a 2x2 matrix, turns or squashes the crop about its centre (training uses it).
    """
    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0) * (1 + 2 * margin)
    centre = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    a = size / max(side, 1.0) * (np.eye(2) if shape is None else shape)
    extra = side / size / MAX_SHRINK
    if extra > 1:
        # A linear warp samples four pixels, so shrinking a big die by much aliases its
        # pips and grain. The die's neighbourhood (wide enough for any turn) is first shrunk
        # with the area filter, leaving the warp to shrink by MAX_SHRINK at most.
        h, w = img.shape[:2]
        reach = side  # a turned or squashed crop (training) reaches past side / 2
        left, top = max(0, int(centre[0] - reach)), max(0, int(centre[1] - reach))
        right, bottom = min(w, int(centre[0] + reach) + 1), min(h, int(centre[1] + reach) + 1)
        if right - left >= 2 and bottom - top >= 2:
            nw, nh = max(1, round((right - left) / extra)), max(1, round((bottom - top) / extra))
            img = cv2.resize(img[top:bottom, left:right], (nw, nh), interpolation=cv2.INTER_AREA)
            fx, fy = (right - left) / nw, (bottom - top) / nh
            a = a @ np.diag([fx, fy])
            # pixel centres: small pixel (i, j) is the mean around (left + (i + 0.5) fx - 0.5, ...)
            origin = np.array([left + (fx - 1) / 2, top + (fy - 1) / 2])
            centre = (centre - origin) / (fx, fy)
    m = np.hstack([a, (size / 2 - a @ centre)[:, None]]).astype(np.float32)
    return cv2.warpAffine(
        img, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def far_side_up(view: str, shape: tuple[int, ...], box) -> np.ndarray | None:
    """The turn (a 2x2 matrix for ``crop_die``'s ``shape``) that puts the far side of the die
    in ``box`` up, for a picture of ``shape`` seen from ``view`` (see VIEWS); None where the
    picture's up is already the far side."""
    if view == "slanted":
        return None
    h, w = shape[:2]
    away = np.arctan2((box[1] + box[3]) / 2 - h / 2, (box[0] + box[2]) / 2 - w / 2)
    return turn_matrix(-np.pi / 2 - away)  # takes the direction away from the centre to up


def turn_matrix(angle: float) -> np.ndarray:
    """The 2x2 matrix that turns a point by ``angle`` radians (a ``crop_die`` shape)."""
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s], [s, c]])


def crop_looks(crops: list[np.ndarray], looks: str = "turns") -> np.ndarray:
    """The classifier's input for ``crops``: a few looks at each (see LOOKS), look by look,
    as one float batch (looks * len(crops), 3, side, side)."""
    if looks == "upright":
        side = crops[0].shape[0]
        centre = (side / 2, side / 2)
        turns = [cv2.getRotationMatrix2D(centre, a, 1.0) for a in (UPRIGHT_TURN, -UPRIGHT_TURN)]
        seen = [
            *crops,
            *(
                cv2.warpAffine(c, m, (side, side), borderMode=cv2.BORDER_REPLICATE)
                for m in turns
                for c in crops
            ),
        ]
        return to_tensor(np.stack(seen))
    batch = to_tensor(np.stack(crops))
    return np.concatenate([np.rot90(batch, k, axes=(2, 3)) for k in range(TURNS)])


def symbol_crop(crop: np.ndarray) -> np.ndarray:
    """``crop`` as a taught die's symbol is compared: grey, stretched to full contrast, and
    turned so the symbol is lighter than the die's body.

    A taught die is told by the shape of its symbols; colour and which of symbol and body is
    the lighter only add noise between two shows of one face. The body is most of the face,
    so the face's mean leans from its median towards the symbol (a ring's hollow centre
    would not say which is which)."""
    g = cv2.normalize(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), None, 0, 255, cv2.NORM_MINMAX)
    face = g[_face_disc(g.shape[0])]
    if face.mean() < np.median(face):
        g = 255 - g
    return cv2.merge([g, g, g])


@functools.lru_cache(maxsize=4)
def _face_disc(size: int) -> np.ndarray:
    """The pixels of a ``size`` crop that lie on the die's top face, whatever its turn."""
    yy, xx = np.mgrid[:size, :size] - (size - 1) / 2
    return np.hypot(xx, yy) < 0.35 * size

"""The dice reader: find every die in a picture, then read each top face.

Small ONNX models, run by onnxruntime (see models/README.md, the model card):

1. ``dice-detector.onnx`` finds dice. It sees the whole picture, letterboxed to
   512x512, and answers with a heat map of die centres and each die's size (a
   CenterNet-style detector). It learned what a die looks like, so it needs no
   picture of the empty table and no colour or brightness rule, and a die is one
   peak however its pips are spread, so there is no clustering distance to tune. A
   second, coarse pass at 160x160 finds the close-up dice too big for the first (run
   by a smaller detector where the card names one, ``coarse_detector``).
2. ``dice-faces.onnx`` reads one die: a 48x48 crop around each box goes in, the
   face class comes out (pips or numeral 1..6, a coloured dot, or "not a die"),
   with a 64-number embedding that ``companion teach`` uses for custom dice.

A die whose best class is below ``min_confidence`` is reported unsure (value None),
never guessed; a card may name a second classifier asked about such a die first
(``second_opinion``), and one that reads again every die read with confidence and makes it
unsure where it surely reads another face (``veto``). Boxes are in pixels of the original
picture, whatever its size.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import cv2
import numpy as np

from companion.errors import CompanionError, StorageError
from companion.vision.settle import in_rows

DETECT_SIZE = 512  # the detector's input side when training (the model fixes it)
STRIDE = 4  # detector output cell, in input pixels
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
# numeral or symbol is not that face (model card, C1).
LOOKS = ("turns", "upright")
UPRIGHT_TURN = 10.0
# Where the camera stood (DiceReader's ``view``), so an "upright" classifier gets each die
# with its far side up. "slanted": a photo taken at a slant and held upright, whose top is the
# far side everywhere (the phone photos it learned from). "down": a camera looking straight
# down, as the device's is mounted: perspective shows each die's top face shifted away from
# the point below the camera (the picture's centre) and a side face towards it, so a die in
# the lower half of the frame shows its top face below its side face, and one at the left or
# right edge sideways. Each crop is then turned so that the direction away from the centre
# is up (session 38: the dev photos turned 180 degrees and read as "slanted" gave 29 dice of
# 268 read wrong with confidence, against 2).
VIEWS = ("slanted", "down")
# A peak this near a die already found (a share of its size), its box mostly within that
# die's, is that die again (``decode``).
SAME_DIE = 0.6
# A close-up: a die this share of the picture's longer side or more is past the sizes the
# detector learned at its 512 px input (about 10 to 100 px there); a second, coarse pass sees
# the picture at 160 px, where such a die is 32 px or more, inside the learned range.
CLOSE_UP = 0.2
STRIDE_COARSEST = 32  # the detector's coarsest stride: its input sides are multiples of it
COARSE_SIZE = 160  # a multiple of STRIDE_COARSEST
# A wide shot: in a big picture, a die under this share of its longer side is under about
# 20 px at the detector's input, where it is mostly missed; overlapping tiles of TILE source
# pixels, each read at the detector's full input, see it larger.
SMALL = 0.04
TILE = 1024
TILE_STEP = 768  # tiles overlap by 256 px, more than a small die, so each is whole in one
AGAIN = 40  # px at the detector's input a small die is found again at (``_found_again``)
AGAIN_SIDES = (0.6, 1.6)  # the die found again: its side against the box it is checked for
FACES_BATCH = 32  # crops a classifier run: 8 dice in four looks, 10 in three (``_run``)
# A colour cast (``neutral``): a picture whose channels' levels differ by more than CAST
# (99% of the train photos outside dev do not) is taken down to NEUTRAL (their median).
CAST = 1.3
NEUTRAL = 1.06
CAST_WIDTH = 160
NEAR_NEUTRAL = 0.55  # the most saturated pixel the cast is measured on
_POWER6 = (np.arange(256) / 255.0) ** 6  # each level's sixth power (shades of grey)
SYMBOL_EMBEDDING = "grey"  # how a taught die's symbols are embedded (``symbol_crop``)
# The First Island's colour-dotted dice: which face value each dot colour stands for
# (its rulebook: yellow Scavengers 1, red Builders 2, blue Scholars 3, purple
# Matriarchy 4, green Healers 5, orange Scientists 6).
DOT_VALUE = {"yellow": 1, "red": 2, "blue": 3, "purple": 4, "green": 5, "orange": 6}


class VisionError(CompanionError):
    code = "vision/failed"


def model_dir() -> Path:
    """Where the shipped models are (inside the installed package)."""
    return Path(str(resources.files("companion.modelfiles")))


# -- pictures in, tensors out (training uses these very functions) -------------------
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


def neutral(img: np.ndarray) -> np.ndarray:
    """``img`` with a strong colour cast (a warm lamp, a green fluorescent tube) taken down to
    a normal picture's; a picture with no more cast than ``CAST`` (its ``cast_levels``
    apart by that ratio at most, or unmeasurable) is returned untouched. Under a warm lamp
    the detector boxes the table as dice, and under a cool one it finds fewer dice
    (measured in the model card)."""
    level = cast_levels(img)
    if level is None:
        return img
    cast = float(level.max() / level.min())
    if cast <= CAST:
        return img
    # Gains that leave the cast at NEUTRAL: the channels' levels to the power 1 - k meet.
    k = 1 - np.log(NEUTRAL) / np.log(cast)
    gains = (level.mean() / level) ** k
    lut = np.clip(np.arange(256, dtype=np.float32)[:, None] * gains + 0.5, 0, 255).astype(np.uint8)
    return cv2.merge([cv2.LUT(img[..., c], lut[:, c]) for c in range(3)])


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
    # unlike INTER_LINEAR, gives the same bytes on x86 and ARM (model card, C8).
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


def decode(
    out: np.ndarray, threshold: float, scale: float, shape: tuple[int, int], max_dice: int = 60
) -> list[tuple[tuple[int, int, int, int], float]]:
    """Detector output (5, H, W): peaks above ``threshold`` as boxes in original pixels,
    hottest first, at most ``max_dice`` of them.

    ``max_dice`` counts the dice kept, not the peaks looked at: a second peak on a die
    already kept uses up no place, so a crowded table, with more peaks than dice, keeps
    its cooler dice (C45, the model card)."""
    heat = out[0]
    peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= threshold)
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-heat[ys, xs])
    ys, xs = ys[order], xs[order]
    # every peak's box at once (a crowded or noisy picture has hundreds of peaks)
    cxs = (xs + 0.5 + out[3, ys, xs]) * STRIDE / scale
    cys = (ys + 0.5 + out[4, ys, xs]) * STRIDE / scale
    bws, bhs = np.exp(out[1, ys, xs]) * STRIDE / scale, np.exp(out[2, ys, xs]) * STRIDE / scale
    wholes = np.stack([cxs - bws / 2, cys - bhs / 2, cxs + bws / 2, cys + bhs / 2], axis=1)
    reach = SAME_DIE * np.maximum(bws, bhs)  # how near a second peak on a die comes
    h, w = shape
    found = []
    # A second peak on a die already found (its centre well inside that die, and its box
    # mostly within that die's) is the same die. Dice on a table are about a die apart, but
    # in a heap one die stands in front of another and their centres come closer: then most
    # of the second box lies outside the first (C44, the model card). Each die kept marks
    # the cooler peaks on it at once.
    same = np.zeros(len(order), bool)
    for i in range(len(order)):
        if len(found) == max_dice:
            break
        if same[i]:
            continue
        whole = wholes[i]
        box = (
            int(max(0, whole[0])),
            int(max(0, whole[1])),
            int(min(w, whole[2])),
            int(min(h, whole[3])),
        )
        if box[2] > box[0] and box[3] > box[1]:
            found.append((box, float(heat[ys[i], xs[i]])))
            later = slice(i + 1, None)
            near = np.hypot(cxs[later] - cxs[i], cys[later] - cys[i]) < reach[i]
            same[later] |= near & (within(wholes[later], whole) > 0.5)
    return found


def within(boxes: np.ndarray, b) -> np.ndarray:
    """How much of each box's area in ``boxes`` (N, 4) lies within box ``b`` (0 to 1)."""
    across = np.maximum(0.0, np.minimum(boxes[:, 2], b[2]) - np.maximum(boxes[:, 0], b[0]))
    down = np.maximum(0.0, np.minimum(boxes[:, 3], b[3]) - np.maximum(boxes[:, 1], b[1]))
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    return across * down / np.maximum(1e-9, area)


# -- reading -------------------------------------------------------------------------
@dataclass(frozen=True)
class DieReading:
    """One die read from one picture."""

    box: tuple[int, int, int, int]
    value: int | str | None  # 1..6, a taught face name, or None when unsure
    confidence: float
    face: str  # what the classifier saw: "4", "dot-red", a taught name, "unsure"

    def to_json(self) -> dict:
        return {
            "value": self.value,
            "box": list(self.box),
            "confidence": round(self.confidence, 3),
            "face": self.face,
        }


@dataclass(frozen=True)
class FacePicture:
    """The picture the dice's faces are read from: the analysis picture the dice were found
    in, or the same view ``scale`` times larger (``DiceReader.read``'s ``detail``)."""

    picture: np.ndarray
    scale: float

    def box(self, box):
        """``box``, in the analysis picture's pixels, in this picture's."""
        return box if self.scale == 1.0 else tuple(v * self.scale for v in box)


class DiceReader:
    """Reads dice from BGR pictures with the shipped models (one thread by default)."""

    def __init__(
        self,
        models: Path | None = None,
        threads: int = 1,
        min_confidence: float | None = None,
        detect_threshold: float | None = None,
        custom: CustomDice | None = None,
        view: str = "slanted",
    ):
        import onnxruntime as ort

        if view not in VIEWS:
            raise VisionError(
                f"unknown view {view!r}: say {' or '.join(repr(v) for v in VIEWS)} (a camera "
                "looking straight down, as the device's is mounted, is 'down'; a photo taken "
                "at a slant and held upright is 'slanted')",
                code="vision/bad-view",
            )
        self.view = view

        models = models or model_dir()
        missing = [
            f
            for f in ("dice.json", "dice-detector.onnx", "dice-faces.onnx")
            if not (models / f).is_file()
        ]
        if missing:
            raise VisionError(
                f"no dice models in {models}: {', '.join(missing)} missing. Give a folder "
                "holding dice.json, dice-detector.onnx and dice-faces.onnx, reinstall the "
                "package, or run `make model` to rebuild them.",
                code="vision/no-models",
            )
        card = json.loads((models / "dice.json").read_text())
        self.classes: list[str] = card["classes"]
        # the side of the square crop the face classifier was trained on
        self.crop_size: int = card.get("crop_size", CROP_SIZE)
        self.min_confidence = card["min_confidence"] if min_confidence is None else min_confidence
        self.detect_threshold = (
            card["detect_threshold"] if detect_threshold is None else detect_threshold
        )
        self.faint_threshold: float | None = card.get("faint_threshold")
        # Margins of the second look at a die the first look left unsure (``_read_each``).
        self.second_look: tuple[float, ...] = tuple(card.get("second_look", ()))
        self.looks: str = card.get("looks", "turns")
        if self.looks not in LOOKS:
            raise VisionError(
                f"{models / 'dice.json'} gives looks {self.looks!r}; this reader knows "
                f"{' and '.join(LOOKS)}: update companion, or put back the card that came "
                "with these models",
                code="vision/card-mismatch",
            )
        # Other classifiers asked in turn about a die the first leaves unsure
        # (``_second_opinion``): the card's ``second_opinion``, one or a list.
        opinions = card.get("second_opinion") or []
        if isinstance(opinions, dict):
            opinions = [opinions]
        for opinion in opinions:
            self._card_looks(models, "a second opinion", opinion)
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        try:
            self._detector = ort.InferenceSession(
                str(models / "dice-detector.onnx"), opts, providers=["CPUExecutionProvider"]
            )
            self._faces = ort.InferenceSession(
                str(models / "dice-faces.onnx"), opts, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:  # onnxruntime raises its own exception types
            raise VisionError(
                f"cannot load the dice models from {models}: {exc}. Reinstall the "
                "package, or run `make model` to rebuild them."
            ) from exc
        self._opinions = [
            (self._card_model(models, "a second opinion", o, o.get("file"), opts), o["looks"])
            for o in opinions
        ]
        classifiers = [("dice-faces.onnx", self._faces)]
        classifiers += [(o["file"], s) for o, (s, _) in zip(opinions, self._opinions, strict=True)]
        # A classifier that reads again every face read with confidence, and makes it unsure
        # where it reads another face with at least its confidence (``_vetoed``): the card's
        # ``veto``, ``{"file": ..., "looks": ..., "confidence": ...}``.
        self._veto = None
        veto = card.get("veto")
        if veto is not None:
            confidence = veto.get("confidence") if isinstance(veto, dict) else None
            number = isinstance(confidence, (int, float)) and not isinstance(confidence, bool)
            if not number or not 0 < confidence <= 1:
                raise self._card_refuses(
                    models, "a veto", veto, "it gives no confidence between 0 and 1"
                )
            self._card_looks(models, "a veto", veto)
            # A classifier the card also asks for an opinion is loaded once.
            session = dict(classifiers).get(veto.get("file"))
            if session is None:
                session = self._card_model(models, "a veto", veto, veto.get("file"), opts)
                classifiers.append((veto["file"], session))
            self._veto = (session, veto["looks"], float(confidence))
        for name, session in classifiers:
            side = session.get_inputs()[0].shape[2]
            if isinstance(side, int) and side != self.crop_size:
                raise VisionError(
                    f"{models / 'dice.json'} gives crop_size {self.crop_size}, but "
                    f"{models / name} reads {side}x{side} crops: the card and the classifier "
                    "come from different runs. Put back the dice.json that was made with this "
                    "classifier, reinstall the package, or run `make model`.",
                    code="vision/card-mismatch",
                )
        # Which face classifier this is: a taught die's embeddings only mean something to
        # the classifier that made them.
        self.faces_id = hashlib.sha256((models / "dice-faces.onnx").read_bytes()).hexdigest()[:16]
        # ... and the way its symbols were embedded (see ``symbol_crop``).
        self.teach_id = f"{self.faces_id}/{SYMBOL_EMBEDDING}"
        if custom is not None and custom.model not in (None, self.teach_id):
            raise VisionError(
                f"the die {custom.name!r} was taught with another version of the dice "
                f"model (its faces would be misread): teach it again with "
                f"`companion teach {custom.name}`",
                code="vision/stale-die",
            )
        self.custom = custom
        self._detector_input, side = detector_input(self._detector)
        # The detector's input side: fixed in older exports; a free side (a name, not a
        # number) lets the coarse close-up pass run the same detector at COARSE_SIZE.
        self.detect_size = side if isinstance(side, int) else card.get("detect_size", DETECT_SIZE)
        self.coarse_size = None if isinstance(side, int) else COARSE_SIZE
        self._free = not isinstance(side, int)
        # A card may name a detector of its own for the coarse pass (``coarse_detector``): a
        # smaller one finds close-ups as well at 160 px, in less time.
        self._coarse = None
        coarse = card.get("coarse_detector")
        if coarse is not None:
            session = self._card_model(models, "a coarse detector", coarse, coarse, opts)
            feed, coarse_side = detector_input(session)
            if isinstance(coarse_side, int):
                raise self._card_refuses(
                    models,
                    "a coarse detector",
                    coarse,
                    f"it reads only {coarse_side}x{coarse_side} pictures; the coarse pass "
                    "needs one exported with a free input side",
                )
            self._coarse = (session, feed)
            self.coarse_size = COARSE_SIZE

    @staticmethod
    def _card_refuses(models: Path, what: str, named, wrong: str) -> VisionError:
        """The error for a card naming a helper model (``what``: "a second opinion", "a
        coarse detector") that this reader cannot use, saying ``wrong``."""
        return VisionError(
            f"{models / 'dice.json'} names {what} {named!r}, but {wrong}: put back the "
            "models that came with this card, or reinstall the package",
            code="vision/card-mismatch",
        )

    @classmethod
    def _card_looks(cls, models: Path, what: str, named) -> None:
        """Refuses the card if its entry ``named`` for ``what`` gives no looks this reader
        knows."""
        if not isinstance(named, dict) or named.get("looks") not in LOOKS:
            raise cls._card_refuses(models, what, named, f"its looks are not {' or '.join(LOOKS)}")

    def _card_model(self, models: Path, what: str, named, file, opts):
        """Loads the ONNX ``file`` in ``models`` that the card names as ``what`` (its entry
        ``named``), or refuses the card: no such file, or one onnxruntime cannot load."""
        import onnxruntime as ort

        path = models / str(file or "")
        if not file or not path.is_file():
            raise self._card_refuses(models, what, named, f"there is no file {path}")
        try:
            return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own exception types
            raise self._card_refuses(models, what, named, f"it cannot be loaded ({exc})") from exc

    def detect(
        self, img: np.ndarray, threshold: float | None = None, size: int | None = None
    ) -> list[tuple[tuple[int, int, int, int], float]]:
        """Boxes (original pixels) and heat of the peaks above ``threshold`` (by default
        ``detect_threshold``), strongest first, with the picture letterboxed to ``size`` (by
        default ``detect_size``). At ``coarse_size`` it is the coarse pass, run by the card's
        coarse detector where it names one."""
        img = as_bgr(img)
        size = size or self.detect_size
        # A free-size detector reads the picture's own shape (to a multiple of its coarsest
        # stride): a 640x480 frame at 512x384, not on a square that is a quarter padding.
        multiple = STRIDE_COARSEST if self._free else None
        session, feed = self._detector, self._detector_input
        if self._coarse is not None and size == self.coarse_size:
            (session, feed), multiple = self._coarse, STRIDE_COARSEST
        boxed, scale = letterbox(img, size, multiple)
        out = session.run(None, {"image": feed(boxed[None])})[0][0]
        limit = self.detect_threshold if threshold is None else threshold
        return decode(out, limit, scale, img.shape[:2])

    def detect_close_ups(self, img: np.ndarray) -> list[tuple[tuple[int, int, int, int], float]]:
        """The coarse pass's boxes (and heat) of dice at least ``CLOSE_UP`` of the picture's
        longer side: close-ups, too big for the full pass; none without a free-size detector."""
        if self.coarse_size is None:
            return []
        least = CLOSE_UP * max(img.shape[:2])
        found = self.detect(img, size=self.coarse_size)
        return [(box, heat) for box, heat in found if box_side(box) >= least]

    def classify(self, img: np.ndarray, boxes: list) -> tuple[np.ndarray, np.ndarray]:
        """Class probabilities (N, classes) and unit embeddings (N, 64) for each box."""
        return self._run([self._crop(img, b) for b in boxes])

    def _crop(self, img: np.ndarray, box, margin: float = CROP_MARGIN) -> np.ndarray:
        """The crop the classifier reads of the die in ``box``: for an upright classifier,
        turned so the die's far side is up (``far_side_up``); a taught die is matched in
        quarter turns, so its crops are never turned."""
        turn = None
        if self.looks == "upright" and self.custom is None:
            turn = far_side_up(self.view, img.shape, box)
        return crop_die(img, box, self.crop_size, margin, shape=turn)

    def symbol_embeddings(self, img: np.ndarray, boxes: list) -> np.ndarray:
        """Unit embeddings (N, 64) of the symbol on each box's die (see ``symbol_crop``):
        what a taught die's faces are told apart by."""
        crops = [symbol_crop(crop_die(img, b, self.crop_size)) for b in boxes]
        return self._run(crops, "turns")[1]  # a symbol is the same symbol turned

    def _run(
        self, crops: list[np.ndarray], looks: str | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """The face classifier's probabilities and unit embeddings for each crop, each the
        mean over the crop's ``looks`` (``crop_looks``; by default the card's)."""
        return self._classify(self._faces, crops, looks or self.looks)

    def _classify(
        self, faces, crops: list[np.ndarray], looks: str
    ) -> tuple[np.ndarray, np.ndarray]:
        """``_run`` with the classifier session ``faces`` (the card's own or its second
        opinion) in ``looks``."""
        if not crops:
            return np.zeros((0, len(self.classes)), np.float32), np.zeros((0, 64), np.float32)
        n = len(crops)
        turned = crop_looks(crops, looks)
        # At most FACES_BATCH crops a run: onnxruntime keeps the memory of the largest batch
        # it has run, so a crowded table would otherwise grow the process for good.
        runs = [
            faces.run(None, {"crops": np.ascontiguousarray(turned[i : i + FACES_BATCH])})
            for i in range(0, len(turned), FACES_BATCH)
        ]
        probs = np.concatenate([p for p, _ in runs])
        emb = np.concatenate([e for _, e in runs])
        probs = probs.reshape(-1, n, probs.shape[1]).mean(0)
        emb = emb.reshape(-1, n, emb.shape[1]).mean(0)
        return probs, emb / np.maximum(np.linalg.norm(emb, axis=1, keepdims=True), 1e-9)

    def read(self, img: np.ndarray, detail: np.ndarray | None = None) -> list[DieReading]:
        """Every die in ``img``, in rows top to bottom, each left to right.

        ``detail``, when given, is the same picture at a higher resolution (the Pi camera's
        main stream beside its analysis stream): the dice are found in ``img`` and their faces
        read from ``detail``, where a small die has more pixels. Boxes stay in ``img``'s.

        A faint peak (heat from ``faint_threshold`` up to ``detect_threshold``) is a die
        only when the classifier reads a face on it with confidence and no stronger die's box
        holds its centre, nor its box a stronger die's centre: a small or oblique die the
        detector is unsure of, or one touching another in a heap, but never an unsure box of
        its own, nor a second box on a die already found. A close-up die is found by a coarse
        second pass (``_close_ups``), and in a big picture the small dice tile by tile
        (``_small_dice``)."""
        img = as_bgr(img)
        faces = self._faces_from(img, detail)
        # The detector looks at the picture with a strong colour cast taken out; the faces
        # are read from the picture as it is (a dot's colour is the face). Not with a taught
        # die: it was taught from shows seen as they were, and is read the same way.
        look = neutral(img) if self.custom is None else img
        fine = self._read_fine(faces, look)
        passes = self._small_dice(faces, look, self._close_ups(faces, look, fine))
        dice = [d for d, _ in passes]
        if self.custom is not None:  # the close-up and tile passes' dice are one size too
            dice = one_size(dice)
        return reading_order(dice)

    def _read_fine(self, img: FacePicture, look: np.ndarray) -> list[tuple[DieReading, float]]:
        """The dice the detector finds at its full input side, each with its peak's heat."""
        faint = self.faint_threshold
        # Not with a taught die: its faces are named by the looser embedding match, which
        # tokens and coins on the table can pass.
        if faint is None or faint >= self.detect_threshold or self.custom is not None:
            return self._read_found(img, self.detect(look))
        found = self.detect(look, faint)
        boxes = [b for b, _ in found]
        strong = [b for b, heat in found if heat >= self.detect_threshold]
        dice = []
        for (box, heat), die in zip(found, self._read_each(img, boxes), strict=True):
            if die is None:
                continue
            if heat >= self.detect_threshold or (
                die.value is not None and all(_apart(box, b) for b in strong)
            ):
                dice.append((die, heat))
        return dice

    def _close_ups(
        self, img: FacePicture, look: np.ndarray, dice: list[tuple[DieReading, float]]
    ) -> list[tuple[DieReading, float]]:
        """``dice`` (each with its heat) with the close-up dice of a coarse pass put in.

        A die that fills much of the picture is past the sizes the detector learned at its
        full input, where it finds pips or nothing. A coarse box read with a face (never
        unsure) is a die, and the boxes found inside it were its pips or a second look at
        it; unless the full pass is surer (a hotter peak) of a die it read inside: then
        the coarse box is a patch of table around small dice, and it is the one dropped."""
        big = self.detect_close_ups(look)
        if not big:
            return dice
        # The full pass's surer dice first: a coarse box they lie in is not read at all.
        big = [
            (box, heat)
            for box, heat in big
            if not any(
                d.value is not None and h > heat and centre_inside(d.box, box) for d, h in dice
            )
        ]
        read = self._read_each(img, [b for b, _ in big])
        close = [
            (d, h)
            for (_, h), d in zip(big, read, strict=True)
            if d is not None and d.value is not None
        ]
        return close + [
            (d, h) for d, h in dice if not any(centre_inside(d.box, c.box) for c, _ in close)
        ]

    def _small_dice(
        self, img: FacePicture, look: np.ndarray, dice: list[tuple[DieReading, float]]
    ) -> list[tuple[DieReading, float]]:
        """``dice`` with the small dice of a big picture put in, found tile by tile.

        Only what the whole-picture pass cannot see is taken from a tile: a die under
        ``SMALL`` of the picture's longer side, whole in its tile (one cut by a tile's edge
        is whole in the next), not on a die already found (a pip of a big die, or the same
        die again), read with a face with confidence, as a faint peak must be, and found
        again at a die's usual size (``_found_again``): a tile sees the table's things (a
        board's tokens) at sizes the whole-picture pass never boxes them at, and an unsure
        box would ask a player about a die that is not there.

        A die of the whole-picture pass under ``SMALL``, read unsure and not found again,
        gives way first: in a big picture the whole-picture pass sees the table's things
        at a few pixels, where it takes some for dice it cannot read; its place is the
        tile pass's (C40, the model card)."""
        if max(look.shape[:2]) <= TILE:
            return dice
        limit = SMALL * max(look.shape[:2])
        dice = [
            (die, heat)
            for die, heat in dice
            if die.value is not None
            or box_side(die.box) >= limit
            or self._found_again(look, die.box)
        ]
        found = [(box, heat) for box, heat, small in self._tile_peaks(look) if small]
        kept: list[tuple] = []
        taken = [die.box for die, _ in dice]
        for box, heat in sorted(found, key=lambda f: -f[1]):
            if not any(centre_inside(box, t) or _same(box, t) for t in taken):
                kept.append((box, heat))
                taken.append(box)
        read = self._read_each(img, [box for box, _ in kept])
        small = [
            (die, heat)
            for (_, heat), die in zip(kept, read, strict=True)
            if die is not None and die.value is not None and self._found_again(look, die.box)
        ]
        return dice + small

    def _tile_peaks(self, look: np.ndarray) -> list[tuple[tuple[int, int, int, int], float, bool]]:
        """The detector's boxes (the picture's pixels) and heat in each tile of ``look``, tile
        by tile, and whether the tile pass may take each: whole in its tile and under
        ``SMALL`` of the picture's longer side."""
        h, w = look.shape[:2]
        limit = SMALL * max(h, w)
        peaks = []
        for y0 in _tile_starts(h):
            for x0 in _tile_starts(w):
                tile = look[y0 : y0 + TILE, x0 : x0 + TILE]
                th, tw = tile.shape[:2]
                for box, heat in self.detect(tile):
                    left, top, right, bottom = box
                    cut_x = (left <= 0 < x0) or (right >= tw and x0 + tw < w)
                    cut_y = (top <= 0 < y0) or (bottom >= th and y0 + th < h)
                    small = not (cut_x or cut_y or box_side(box) >= limit)
                    peaks.append(((left + x0, top + y0, right + x0, bottom + y0), heat, small))
        return peaks

    def _found_again(self, look: np.ndarray, box) -> bool:
        """Whether the detector finds the die boxed at ``box`` (by a tile, or small by the
        whole-picture pass) again in a window of ``look`` around it, sized so that the die is
        ``AGAIN`` px at the detector's input (the window cut at the picture's edges): a peak
        at the faint threshold or more, centred within ``SAME_DIE`` of the die's side of its
        centre, its side ``AGAIN_SIDES`` of the die's. Seen at a die's usual size, with its
        surroundings, a board's token a tile took for a die is seldom taken for one; a small
        real die is found again (C39 and C40, the model card)."""
        side = box_side(box)
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        window = round(side * self.detect_size / AGAIN)
        x0, y0 = round(cx - window / 2), round(cy - window / 2)
        h, w = look.shape[:2]
        left, top = max(0, x0), max(0, y0)
        part = look[top : min(h, y0 + window), left : min(w, x0 + window)]
        faint = self.faint_threshold
        threshold = self.detect_threshold if faint is None else faint
        low, high = AGAIN_SIDES
        for again, _ in self.detect(part, threshold):
            ax, ay = (again[0] + again[2]) / 2 + left, (again[1] + again[3]) / 2 + top
            if np.hypot(ax - cx, ay - cy) < SAME_DIE * side and low < box_side(again) / side < high:
                return True
        return False

    def read_boxes(
        self, img: np.ndarray, boxes: list, detail: np.ndarray | None = None
    ) -> list[DieReading]:
        """The die in each box (a box that holds no die is left out), in reading order;
        ``detail`` as for ``read``."""
        found = [(box, 0.0) for box in boxes]
        img = as_bgr(img)
        return reading_order([d for d, _ in self._read_found(self._faces_from(img, detail), found)])

    def _faces_from(self, img: np.ndarray, detail: np.ndarray | None) -> FacePicture:
        """Where the faces of the dice found in ``img`` are read: ``detail`` if it is given
        (and no taught die is read: its faces were taught as the analysis picture shows
        them), else ``img`` itself."""
        if detail is None or self.custom is not None:
            return FacePicture(img, 1.0)
        detail = as_bgr(detail)
        (h, w), (dh, dw) = img.shape[:2], detail.shape[:2]
        scale = dw / w
        if dw < w or abs(dh - h * scale) > max(1.0, scale):
            raise VisionError(
                f"the detail picture ({dw}x{dh}) is not the analysis picture ({w}x{h}) at a "
                "higher resolution: give the same view, as large or larger, in the same shape",
                code="vision/bad-detail",
            )
        return FacePicture(detail, scale)

    def _read_found(self, img: FacePicture, found: list) -> list[tuple[DieReading, float]]:
        """The die in each found (box, heat), with its heat; a box that holds no die is left
        out, and with a taught die so is a box much smaller than the named ones."""
        each = self._read_each(img, [box for box, _ in found])
        read = [(d, h) for d, (_, h) in zip(each, found, strict=True) if d is not None]
        if self.custom is not None:
            kept = one_size([d for d, _ in read])
            read = [(d, h) for d, h in read if d in kept]
        return read

    def _read_each(self, faces: FacePicture, boxes: list) -> list[DieReading | None]:
        """The reading of each box (in the analysis picture's pixels), None where it holds no
        die, its face read from ``faces``."""
        # the crops are cut from the picture the faces are read in, at its own scale
        img, at = faces.picture, [faces.box(b) for b in boxes]
        crops = [self._crop(img, b) for b in at]
        if self.custom is None:
            probs, emb = self._run(crops)
            probs = self._second_opinion(crops, self._look_again(img, at, probs))
            vetoed = self._vetoed(crops, probs)
        else:  # the standard reading and the symbol's embedding, in one run
            probs, emb = self._run(crops + [symbol_crop(c) for c in crops], "turns")
            probs, emb = probs[: len(crops)], emb[len(crops) :]
            vetoed = {}
        dice: list[DieReading | None] = []
        for i, (box, p, e) in enumerate(zip(boxes, probs, emb, strict=True)):
            label, conf = self.classes[int(p.argmax())], float(p.max())
            if self.custom is not None:
                # The game is played with the taught dice: a die that is none of the taught
                # faces is unsure, never read as a standard face. The classifier never
                # learned the taught symbols, so its "not a die" only drops a box that
                # matches no taught face either.
                named = self.custom.match(e)
                if named is not None:
                    dice.append(DieReading(box, named[0], named[1], named[0]))
                elif label != "not-a-die" and self.custom.near(e):
                    dice.append(DieReading(box, None, conf, "unsure"))
                else:
                    dice.append(None)
            elif label == "not-a-die":
                dice.append(None)
            elif conf < self.min_confidence:
                dice.append(DieReading(box, None, conf, "unsure"))
            elif i in vetoed:
                dice.append(DieReading(box, None, vetoed[i], "unsure"))
            else:
                value = DOT_VALUE[label[4:]] if label.startswith("dot-") else int(label)
                dice.append(DieReading(box, value, conf, label))
        return dice

    def _look_again(self, img: np.ndarray, boxes: list, probs: np.ndarray) -> np.ndarray:
        """``probs`` with each unsure face read again from crops with the ``second_look``
        margins, and the looks averaged: a die's box may sit a little off, and one framing
        of a small die may hide a pip that another shows."""
        if not self.second_look:
            return probs
        again = self._unsure(probs)
        if not again:
            return probs
        looks = [self._crop(img, boxes[i], margin=m) for m in self.second_look for i in again]
        more = self._run(looks)[0].reshape(len(self.second_look), len(again), -1)
        probs = probs.copy()
        probs[again] = (probs[again] + more.sum(0)) / (1 + len(self.second_look))
        return probs

    def _second_opinion(self, crops: list[np.ndarray], probs: np.ndarray) -> np.ndarray:
        """``probs`` with each face still unsure taken as the geometric mean (renormalised)
        of its reading and the second classifier's (the card's ``second_opinion``) of the
        same crop: two classifiers trained to look differently seldom doubt the same die.
        A card naming several opinions asks each in turn about the faces still unsure."""
        for session, looks in self._opinions:
            again = self._unsure(probs)
            if not again:
                break
            other = self._classify(session, [crops[i] for i in again], looks)[0]
            probs = probs.copy()
            mean = np.sqrt(probs[again] * other)
            probs[again] = mean / np.maximum(mean.sum(1, keepdims=True), 1e-12)
        return probs

    def _vetoed(self, crops: list[np.ndarray], probs: np.ndarray) -> dict[int, float]:
        """The faces read with confidence that the card's ``veto`` classifier reads, with at
        least the veto's confidence, as another face, each with the lower of the two
        classifiers' probabilities of the face read: such a die is reported unsure, for a
        player to confirm, rather than risk a silent misread that changes a score."""
        if self._veto is None:
            return {}
        session, looks, confidence = self._veto
        nod = self.classes.index("not-a-die")
        read = probs.argmax(1)
        sure = self._face_rows(probs, sure=True)
        if not sure:
            return {}
        other = self._classify(session, [crops[i] for i in sure], looks)[0]
        return {
            i: min(float(probs[i, read[i]]), float(o[read[i]]))
            for i, o in zip(sure, other, strict=True)
            if int(o.argmax()) not in (nod, read[i]) and float(o.max()) >= confidence
        }

    def _unsure(self, probs: np.ndarray) -> list[int]:
        """The rows whose best class is a face but under ``min_confidence``."""
        return self._face_rows(probs, sure=False)

    def _face_rows(self, probs: np.ndarray, sure: bool) -> list[int]:
        """The rows whose best class is a face, read with confidence (at least
        ``min_confidence``) or not, as ``sure`` says."""
        nod = self.classes.index("not-a-die")
        return [
            i
            for i, p in enumerate(probs)
            if int(p.argmax()) != nod and (float(p.max()) >= self.min_confidence) == sure
        ]


def _tile_starts(n: int) -> list[int]:
    """Where the tiles along a side of ``n`` pixels start: TILE_STEP apart, the last flush."""
    starts = list(range(0, max(n - TILE, 0) + 1, TILE_STEP))
    if starts[-1] + TILE < n:
        starts.append(n - TILE)
    return starts


def _same(a, b) -> bool:
    """Whether boxes ``a`` and ``b`` are one die: centres closer than SAME_DIE of the larger."""
    return _centres_apart(a, b) < SAME_DIE


def _centres_apart(a, b) -> float:
    """How far apart the centres of boxes ``a`` and ``b`` are, in sides of the larger."""
    d = np.hypot((a[0] + a[2] - b[0] - b[2]) / 2, (a[1] + a[3] - b[1] - b[3]) / 2)
    return float(d / max(box_side(a), box_side(b), 1e-9))


def centre_inside(a, b) -> bool:
    """Whether the centre of box ``a`` lies inside box ``b``."""
    cx, cy = (a[0] + a[2]) / 2, (a[1] + a[3]) / 2
    return bool(b[0] <= cx <= b[2] and b[1] <= cy <= b[3])


def _apart(a, b) -> bool:
    """Whether boxes ``a`` and ``b`` are two dice: neither's centre inside the other's box.
    Dice cannot overlap, so a second peak on a die (or on its side face) lies inside its
    box, while a die touching it has its centre outside, often under a whole die away."""
    return not centre_inside(a, b) and not centre_inside(b, a)


SMALLEST = 0.5  # of the taught dice's median side; chosen on rendered teach sets


def one_size(dice: list[DieReading]) -> list[DieReading]:
    """Taught dice are one set, so one size: once two boxes are named as taught faces, a box
    much smaller than they are is a token or a coin beside them, not a die."""
    named = [box_side(d.box) for d in dice if d.value is not None]
    if len(named) < 2:
        return dice
    floor = SMALLEST * float(np.median(named))
    return [d for d in dice if box_side(d.box) >= floor]


def box_side(box) -> float:
    return max(box[2] - box[0], box[3] - box[1])


def reading_order(dice: list[DieReading]) -> list[DieReading]:
    """Rows top to bottom, each left to right (``settle.in_rows``)."""
    return [dice[i] for i in in_rows([d.box for d in dice])]


# -- custom dice, taught in the field ------------------------------------------------
class CustomDice:
    """Dice whose faces are symbols, known by the classifier's embedding of each show.

    ``faces`` maps a face name to the mean unit embedding of its shows, ``shows`` to the
    unit embeddings of the shows themselves. A die is the face with the nearest show, if
    that show is within the face's ``radius`` (cosine distance; by default
    ``max_distance``) and nearer than ``RATIO`` times the nearest show of any other face
    (a ratio test: a die half-way between two faces is unsure, not guessed). ``model``
    names the face classifier and the symbol embedding that made them
    (``DiceReader.teach_id``); None for a die saved before it was kept.
    """

    RATIO = 0.7

    def __init__(
        self,
        name: str,
        faces: dict[str, np.ndarray],
        max_distance: float = 0.25,
        model: str | None = None,
        radius: dict[str, float] | None = None,
        shows: dict[str, np.ndarray] | None = None,
    ):
        self.name, self.faces, self.max_distance = name, faces, max_distance
        self.model = model
        self.radius = {f: (radius or {}).get(f, max_distance) for f in faces}
        shows = shows or {}
        self.shows = {f: np.atleast_2d(shows.get(f, faces[f])) for f in faces}

    def match(self, embedding: np.ndarray) -> tuple[str, float] | None:
        if not self.faces:
            return None
        names, dist = self._distances(embedding)
        order = np.argsort(dist)
        best = dist[order[0]]
        second = dist[order[1]] if len(order) > 1 else 1.0
        radius = self.radius[names[order[0]]]
        if best > radius or best > self.RATIO * second:
            return None
        return names[order[0]], float(max(0.0, 1 - best / radius))

    def near(self, embedding: np.ndarray) -> bool:
        """Whether ``embedding`` is within the radius of its nearest show's face: one of
        these dice, even when the ratio test leaves it unsure which face it shows."""
        names, dist = self._distances(embedding)
        i = int(np.argmin(dist))
        return bool(dist[i] <= self.radius[names[i]])

    def _distances(self, embedding: np.ndarray) -> tuple[list[str], np.ndarray]:
        """Each face's name and the cosine distance to its nearest show."""
        names = list(self.faces)
        return names, np.array([float((1 - self.shows[n] @ embedding).min()) for n in names])

    def save(self, path: Path) -> None:
        """Write the die to ``path`` whole or not at all: a full disk or a killed process
        leaves the die taught before as it was, never half a file."""
        text = json.dumps(
            {
                "name": self.name,
                "model": self.model,
                "max_distance": self.max_distance,
                "radius": {k: round(v, 4) for k, v in self.radius.items()},
                "faces": {k: [round(float(x), 6) for x in v] for k, v in self.faces.items()},
                "shows": {
                    k: [[round(float(x), 6) for x in e] for e in v] for k, v in self.shows.items()
                },
            },
            indent=1,
        )
        part = path.with_name(f".{path.name}.part")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(part, "w") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            os.replace(part, path)
        except OSError as exc:
            with contextlib.suppress(OSError):  # the folder itself may be what failed
                part.unlink()
            raise StorageError(
                f"could not save the taught die to {path} ({exc.strerror}); free some space "
                "or set [storage] data_dir to a folder the companion can write, then teach "
                "it again"
            ) from None

    @classmethod
    def load(cls, path: Path) -> CustomDice:
        try:
            data = json.loads(path.read_text())
            faces = {k: np.asarray(v, np.float32) for k, v in data["faces"].items()}
            return cls(
                data["name"],
                faces,
                data.get("max_distance", 0.25),
                data.get("model"),
                data.get("radius"),
                {k: np.asarray(v, np.float32) for k, v in data.get("shows", {}).items()},
            )
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise VisionError(
                f"cannot read the taught die {path}: {exc}. Teach it again with "
                "`companion teach NAME`."
            ) from exc

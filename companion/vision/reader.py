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
   with a 64-number embedding that ``companion teach`` uses for custom dice, and that a
   taught set of the table's own pip dice reads the faces by (``taught.TaughtSet``).

A die whose best class is below ``min_confidence`` is reported unsure (value None),
never guessed; a card may name a second classifier asked about such a die first
(``second_opinion``), and one that reads again every die read with confidence and makes it
unsure where it surely reads another face (``veto``). Boxes are in pixels of the original
picture, whatever its size.

``DiceReader`` is made of parts in modules of their own: the card and the models it names
(``card.CardModels``), the detector's map turned into boxes (``heat.decode``), the helper
classifiers' part (``cascade.Cascade``), the close-up dice (``closeups.CloseUpPass``) and
the small dice of a wide shot (``tiles.TilePass``), and the picture the faces are read
from (``facepicture``).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from companion.errors import VisionError
from companion.vision.boxes import (
    apart,
    in_rows,
)
from companion.vision.card import (
    CardModels,
    read_card,
    session_options,
)
from companion.vision.cascade import Cascade
from companion.vision.closeups import CloseUpPass
from companion.vision.custom import CustomDice, one_size
from companion.vision.facepicture import FacePicture, PictureCast, face_picture
from companion.vision.heat import HEAP_DICE, MAX_DICE, decode
from companion.vision.pictures import (
    CROP_MARGIN,
    VIEWS,
    as_bgr,
    balanced,
    crop_die,
    crop_looks,
    dot_gains,
    far_side_up,
    letterbox,
    neutral,
    symbol_crop,
)
from companion.vision.taught import TaughtSet
from companion.vision.tiles import TilePass

STRIDE_COARSEST = 32  # the detector's coarsest stride: its input sides are multiples of it
FACES_BATCH = 32  # crops a classifier run: 8 dice in four looks, 10 in three (``_run``)
# Colour-dotted dice: which face value each dot colour stands for (a game's dice spec then
# names the values: yellow 1, red 2, blue 3, purple 4, green 5, orange 6).
DOT_VALUE = {"yellow": 1, "red": 2, "blue": 3, "purple": 4, "green": 5, "orange": 6}
# A pass reads its MAX_DICE hottest dice as any die (``heat.decode``); a heap's further
# dice, up to HEAP_DICE in all, only where read with a face at HEAP_CONFIDENCE or more
# .
HEAP_CONFIDENCE = 0.8


def model_dir() -> Path:
    """Where the shipped models are (inside the installed package)."""
    return Path(str(resources.files("companion.modelfiles")))


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


class DiceReader(CardModels, Cascade, TilePass, CloseUpPass):
    """Reads dice from BGR pictures with the shipped models (one thread by default)."""

    def __init__(
        self,
        models: Path | None = None,
        threads: int = 1,
        min_confidence: float | None = None,
        detect_threshold: float | None = None,
        custom: CustomDice | TaughtSet | None = None,
        view: str = "slanted",
    ):
        if view not in VIEWS:
            raise VisionError(
                f"unknown view {view!r}: say {' or '.join(repr(v) for v in VIEWS)} (a camera "
                "looking straight down, as the device's is mounted, is 'down'; a photo taken "
                "at a slant and held upright is 'slanted')",
                code="vision/bad-view",
            )
        self.view = view
        models = models or model_dir()
        card = read_card(models)
        self._take_card(card, min_confidence, detect_threshold)
        opts = session_options(threads)
        self._load_classifiers(models, card, opts)
        # which classes are colour dots (``_classify`` reads a dot's crop again balanced)
        self._is_dot = np.array([c.startswith("dot-") for c in self.classes])
        self.taught, self.custom = self._check_taught(models, custom)
        self._face_at = [self.classes.index(f) for f in TaughtSet.faces]
        self._detector_sides(models, card, opts)

    def detect(
        self,
        img: np.ndarray,
        threshold: float | None = None,
        size: int | None = None,
        max_dice: int = MAX_DICE,
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
        return decode(out, limit, scale, img.shape[:2], max_dice)

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
        return self._classify(self._symbols, crops, "turns")[1]  # the same symbol turned

    def _run(
        self,
        crops: list[np.ndarray],
        looks: str | None = None,
        cast: PictureCast | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """The face classifier's probabilities and unit embeddings for each crop, each the
        mean over the crop's ``looks`` (``crop_looks``; by default the card's); ``cast`` as
        for ``_classify``."""
        return self._classify(self._faces, crops, looks or self.looks, cast)

    def _classify(
        self, faces, crops: list[np.ndarray], looks: str, cast: PictureCast | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """``_run`` with the classifier session ``faces`` (the card's own or its second
        opinion) in ``looks``.

        Given the ``cast`` of the picture the crops are from, a crop read as a colour dot is
        read again balanced (``dot_gains``: by its die's light body, or else by the
        picture's cast) and that reading taken: a dot's colour is its face, and under a
        lamp's cast a dot on a dark die was read as its neighbour colour. With a taught set
        (``companion teach --standard``), the six faces' share is then read by its head for
        that classifier, where it has one."""
        probs, emb = self._classify_as_seen(faces, crops, looks)
        if cast is not None and len(probs):
            probs, emb = self._dots_balanced(faces, crops, looks, cast, probs, emb)
        head = self._heads.get((id(faces), looks))  # a taught set's, for this classifier
        if head is not None:
            probs = head.adjust(probs, emb, self._face_at)
        return probs, emb

    def _dots_balanced(self, faces, crops, looks, cast, probs, emb):
        """``probs`` and ``emb`` with each crop read as a colour dot read again balanced."""
        again, lit = [], []
        for i in np.flatnonzero(self._is_dot[probs.argmax(1)]):
            gains = dot_gains(crops[i], cast.gains)
            if gains is not None:
                again.append(int(i))
                lit.append(balanced(crops[i], gains))
        if again:
            probs, emb = probs.copy(), emb.copy()
            probs[again], emb[again] = self._classify_as_seen(faces, lit, looks)
        return probs, emb

    def _classify_as_seen(
        self, faces, crops: list[np.ndarray], looks: str
    ) -> tuple[np.ndarray, np.ndarray]:
        """``_classify`` of the crops as they are."""
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
        faces = face_picture(img, detail, taught=self.custom is not None)
        # The detector looks at the picture with a strong colour cast taken out; the faces
        # are read from the picture as it is (a dot's colour is the face), a crop read as a
        # dot read again balanced (``_classify``). Not with a taught die: it was taught from
        # shows seen as they were, and is read the same way.
        look = neutral(img) if self.custom is None else img
        fine = self._read_fine(faces, look)
        passes = self._small_dice(faces, look, self._close_ups(faces, look, fine))
        dice = [d for d, _ in passes]
        if self.custom is not None:  # the close-up and tile passes' dice are one size too
            dice = one_size(dice)
        return reading_order(dice)

    def _read_fine(self, img: FacePicture, look: np.ndarray) -> list[tuple[DieReading, float]]:
        """The dice the detector finds at its full input side, each with its peak's heat.

         The ``MAX_DICE`` hottest are read as any die. A heap's further dice (up to
         ``HEAP_DICE``) are read apart, after them, and kept only where read with a face at
         ``HEAP_CONFIDENCE`` or more: a heap adds dice read surely, never one to confirm
        ."""
        faint = self.faint_threshold
        # Not with a taught die: its faces are named by the looser embedding match, which
        # tokens and coins on the table can pass.
        if faint is None or faint >= self.detect_threshold or self.custom is not None:
            return self._read_found(img, self.detect(look))
        found = self.detect(look, faint, max_dice=HEAP_DICE)
        dice = self._kept(img, found[:MAX_DICE], found[:MAX_DICE])
        heap = self._kept(img, found[MAX_DICE:], found) if len(found) > MAX_DICE else []
        return dice + [
            (d, h) for d, h in heap if d.value is not None and d.confidence >= HEAP_CONFIDENCE
        ]

    def _kept(self, img: FacePicture, found: list, among: list) -> list[tuple[DieReading, float]]:
        """The dice read in ``found`` (box, heat) that are dice: a strong peak's read as a
        die, a faint peak's only when read with a face and apart from every strong peak's
        box in ``among``."""
        strong = [b for b, heat in among if heat >= self.detect_threshold]
        dice = []
        for (box, heat), die in zip(
            found, self._read_each(img, [b for b, _ in found]), strict=True
        ):
            if die is None:
                continue
            if heat >= self.detect_threshold or (
                die.value is not None and all(apart(box, b) for b in strong)
            ):
                dice.append((die, heat))
        return dice

    def read_boxes(
        self, img: np.ndarray, boxes: list, detail: np.ndarray | None = None
    ) -> list[DieReading]:
        """The die in each box (a box that holds no die is left out), in reading order;
        ``detail`` as for ``read``."""
        img = as_bgr(img)
        faces = face_picture(img, detail, taught=self.custom is not None)
        return reading_order([d for d, _ in self._read_found(faces, [(b, 0.0) for b in boxes])])

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
            cast = faces.cast
            probs, emb = self._run(crops, cast=cast)
            probs = self._second_opinion(crops, self._look_again(img, at, probs, cast), cast)
            vetoed = self._vetoed(crops, probs, cast)
        else:  # the standard reading and the symbol's embedding, in one run
            both = crops + [symbol_crop(c) for c in crops]
            probs, emb = self._classify(self._symbols, both, "turns")
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


def reading_order(dice: list[DieReading]) -> list[DieReading]:
    """Rows top to bottom, each left to right (``boxes.in_rows``)."""
    return [dice[i] for i in in_rows([d.box for d in dice])]

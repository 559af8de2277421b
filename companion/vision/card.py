"""The dice models' card (``dice.json``) and the models it names, loaded and checked.

A card that does not fit the models beside it, or this reader, is refused before any picture
is read, saying what to put back: a reader that ran on a mismatched card would misread dice
without a word.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from companion.errors import VisionError
from companion.vision.custom import CustomDice
from companion.vision.pictures import CROP_SIZE, DETECT_SIZE, LOOKS, detector_input
from companion.vision.taught import TaughtSet

NEEDED = ("dice.json", "dice-detector.onnx", "dice-faces.onnx")
# the side the coarse close-up pass reads a picture at (a multiple of the detector's
# coarsest stride, 32)
COARSE_SIZE = 160
SYMBOL_EMBEDDING = "grey"  # how a taught die's symbols are embedded (``symbol_crop``)


def read_card(models: Path) -> dict:
    """The card in ``models``, once the card and the two models every reader needs are
    there and the card's looks are ones this reader knows."""
    missing = [f for f in NEEDED if not (models / f).is_file()]
    if missing:
        raise VisionError(
            f"no dice models in {models}: {', '.join(missing)} missing. Give a folder "
            "holding dice.json, dice-detector.onnx and dice-faces.onnx, reinstall the "
            "package, or run `make model` to rebuild them.",
            code="vision/no-models",
        )
    card = json.loads((models / "dice.json").read_text())
    looks = card.get("looks", "turns")
    if looks not in LOOKS:
        raise VisionError(
            f"{models / 'dice.json'} gives looks {looks!r}; this reader knows "
            f"{' and '.join(LOOKS)}: update companion, or put back the card that came "
            "with these models",
            code="vision/card-mismatch",
        )
    return card


def opinions(models: Path, card: dict) -> list[dict]:
    """The card's ``second_opinion`` entries (one or a list), each with looks this reader
    knows."""
    named = card.get("second_opinion") or []
    if isinstance(named, dict):
        named = [named]
    for opinion in named:
        check_looks(models, "a second opinion", opinion)
    return named


def session_options(threads: int):
    """onnxruntime's options for the reader's sessions: ``threads`` threads within an
    operator, one between them, operators run in turn. With more than one, the pool's
    threads sleep between runs instead of spinning: the camera loop runs a model only
    while dice lie still, and spinning threads would hold the Pi's other cores (and heat
    it) between frames, where the pages and the camera need them."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    if threads > 1:
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return opts


def onnx_session(path: Path, opts):
    """An onnxruntime session of the model at ``path``, on the CPU."""
    import onnxruntime as ort

    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


def refuses(models: Path, what: str, named, wrong: str) -> VisionError:
    """The error for a card naming a helper model (``what``: "a second opinion", "a coarse
    detector") that this reader cannot use, saying ``wrong``."""
    return VisionError(
        f"{models / 'dice.json'} names {what} {named!r}, but {wrong}: put back the "
        "models that came with this card, or reinstall the package",
        code="vision/card-mismatch",
    )


def check_looks(models: Path, what: str, named) -> None:
    """Refuses the card if its entry ``named`` for ``what`` gives no looks this reader
    knows."""
    if not isinstance(named, dict) or named.get("looks") not in LOOKS:
        raise refuses(models, what, named, f"its looks are not {' or '.join(LOOKS)}")


def named_model(models: Path, what: str, named, file, opts):
    """Loads the ONNX ``file`` in ``models`` that the card names as ``what`` (its entry
    ``named``), or refuses the card: no such file, or one onnxruntime cannot load."""
    path = models / str(file or "")
    if not file or not path.is_file():
        raise refuses(models, what, named, f"there is no file {path}")
    try:
        return onnx_session(path, opts)
    except Exception as exc:  # onnxruntime raises its own exception types
        raise refuses(models, what, named, f"it cannot be loaded ({exc})") from exc


def veto(models: Path, card: dict, classifiers: list, opts) -> tuple | None:
    """The card's ``veto`` (``{"file": ..., "looks": ..., "confidence": ...}``) as (session,
    looks, confidence), or None where it names none. A classifier already in
    ``classifiers`` (file name, session) is not loaded twice; one loaded here is added."""
    named = card.get("veto")
    if named is None:
        return None
    confidence = named.get("confidence") if isinstance(named, dict) else None
    number = isinstance(confidence, (int, float)) and not isinstance(confidence, bool)
    if not number or not 0 < confidence <= 1:
        raise refuses(models, "a veto", named, "it gives no confidence between 0 and 1")
    check_looks(models, "a veto", named)
    found = dict(classifiers).get(named.get("file"))
    if found is None:
        found = named_model(models, "a veto", named, named.get("file"), opts)
        classifiers.append((named["file"], found))
    return found, named["looks"], float(confidence)


def check_crop_sides(models: Path, crop_size: int, classifiers: list) -> None:
    """Refuses the card if a classifier in ``classifiers`` (file name, session) reads crops
    of another side than the card's ``crop_size``."""
    for name, classifier in classifiers:
        side = classifier.get_inputs()[0].shape[2]
        if isinstance(side, int) and side != crop_size:
            raise VisionError(
                f"{models / 'dice.json'} gives crop_size {crop_size}, but "
                f"{models / name} reads {side}x{side} crops: the card and the classifier "
                "come from different runs. Put back the dice.json that was made with this "
                "classifier, reinstall the package, or run `make model`.",
                code="vision/card-mismatch",
            )


def coarse_detector(models: Path, card: dict, opts) -> tuple | None:
    """The card's ``coarse_detector`` (a smaller detector that finds close-ups as well at
    the coarse pass's size, in less time) as (session, how it takes a frame), or None
    where it names none. It must take pictures of any side."""
    named = card.get("coarse_detector")
    if named is None:
        return None
    found = named_model(models, "a coarse detector", named, named, opts)
    feed, side = detector_input(found)
    if isinstance(side, int):
        raise refuses(
            models,
            "a coarse detector",
            named,
            f"it reads only {side}x{side} pictures; the coarse pass needs one exported with "
            "a free input side",
        )
    return found, feed


class CardModels:
    """The part of ``DiceReader`` that takes the card's settings and loads the models it
    names, each checked against the card, and checks a taught die or set against them."""

    def _take_card(
        self, card: dict, min_confidence: float | None, detect_threshold: float | None
    ) -> None:
        """The card's classes, crop side, thresholds (unless given) and looks."""
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

    def _load_classifiers(self, models: Path, card: dict, opts) -> None:
        """The detector, the face classifier, and the helper classifiers the card names, each
        checked against the card."""
        # Other classifiers asked in turn about a die the first leaves unsure
        # (``_second_opinion``).
        asked = opinions(models, card)
        try:
            self._detector = onnx_session(models / "dice-detector.onnx", opts)
            self._faces = onnx_session(models / "dice-faces.onnx", opts)
        except Exception as exc:  # onnxruntime raises its own exception types
            raise VisionError(
                f"cannot load the dice models from {models}: {exc}. Reinstall the "
                "package, or run `make model` to rebuild them."
            ) from exc
        self._opinions = [
            (named_model(models, "a second opinion", o, o.get("file"), opts), o["looks"])
            for o in asked
        ]
        classifiers = [("dice-faces.onnx", self._faces)]
        classifiers += [(o["file"], s) for o, (s, _) in zip(asked, self._opinions, strict=True)]
        # The classifier whose embeddings name a taught die's faces, and which reads the dice
        # when one is taught (``companion teach``): by default the face classifier. Kept
        # apart, the face classifier can be trained again without every taught die having
        # to be taught again.
        self.symbols_file: str = card.get("symbols", "dice-faces.onnx")
        self._symbols = dict(classifiers).get(self.symbols_file)
        if self._symbols is None:
            self._symbols = named_model(
                models, "a symbols classifier", self.symbols_file, self.symbols_file, opts
            )
            classifiers.append((self.symbols_file, self._symbols))
        # A classifier that reads again every face read with confidence, and makes it unsure
        # where it reads another face with at least its confidence (``_vetoed``).
        self._veto = veto(models, card, classifiers, opts)
        check_crop_sides(models, self.crop_size, classifiers)
        # Every classifier that reads standard dice, once each, as (file, session, looks):
        # a taught set of the table's dice teaches each of them (``companion teach
        # --standard``).
        self._asked = [("dice-faces.onnx", self._faces, self.looks)]
        self._asked += [
            (o["file"], s, looks) for o, (s, looks) in zip(asked, self._opinions, strict=True)
        ]
        if self._veto is not None:
            self._asked.append((card["veto"]["file"], self._veto[0], self._veto[1]))
        self._asked = list({(f, looks): (f, s, looks) for f, s, looks in self._asked}.values())

    def _check_taught(self, models: Path, custom) -> tuple[TaughtSet | None, CustomDice | None]:
        """``custom`` as (taught set, taught die): each refused where it was taught with
        another classifier than the one it would be read with, whose answers or embeddings
        it was made of (``taught_id``, ``teach_id``)."""
        # Which classifier embeds a taught die's symbols (the card's ``symbols``)...
        symbols = (models / self.symbols_file).read_bytes()
        self.symbols_id = hashlib.sha256(symbols).hexdigest()[:16]
        # ... and the way its symbols were embedded (see ``symbol_crop``).
        self.teach_id = f"{self.symbols_id}/{SYMBOL_EMBEDDING}"
        # A taught set is a head over each classifier's answers in its looks.
        asked = hashlib.sha256()
        for file, _, looks in self._asked:
            asked.update(f"{file}/{looks}/".encode() + (models / file).read_bytes())
        self.taught_id = asked.hexdigest()[:16]
        self._heads = {}
        if custom is None:
            return None, None
        standard = isinstance(custom, TaughtSet)
        if custom.model not in (None, self.taught_id if standard else self.teach_id):
            again = f"companion teach {custom.name}" + (" --standard" if standard else "")
            raise VisionError(
                f"the dice {custom.name!r} were taught with another version of the dice "
                f"model (their faces would be misread): teach them again with `{again}`",
                code="vision/stale-die",
            )
        if not standard:
            return None, custom
        self._heads = {
            (id(session), looks): custom.heads[file]
            for file, session, looks in self._asked
            if file in custom.heads
        }
        return custom, None

    def _detector_sides(self, models: Path, card: dict, opts) -> None:
        """How the detector takes a picture, at which side, and the coarse pass's detector."""
        self._detector_input, side = detector_input(self._detector)
        # The detector's input side: fixed in older exports; a free side (a name, not a
        # number) lets the coarse close-up pass run the same detector at COARSE_SIZE.
        self.detect_size = side if isinstance(side, int) else card.get("detect_size", DETECT_SIZE)
        self.coarse_size = None if isinstance(side, int) else COARSE_SIZE
        self._free = not isinstance(side, int)
        # A card may name a detector of its own for the coarse pass.
        self._coarse = coarse_detector(models, card, opts)
        if self._coarse is not None:
            self.coarse_size = COARSE_SIZE

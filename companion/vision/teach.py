"""``companion teach NAME``: learn a custom die from a few shows of each face.

A custom die has symbols instead of pips (a game's commerce dice, tribe-symbol
dice). Nothing is retrained: each show of a face goes through
the face classifier, and the die is remembered as the classifier's 64-number
embeddings of every show, taken from grey crops with the symbol made the lighter part
(``symbol_crop``: a die is told by its symbols' shapes, never by their colour). The
reader then names the face with the nearest show, when it is clearly nearer than any
other face's (see ``CustomDice``).

Shows come from a folder (``DIR/<face name>/*.jpg``, one die in each picture) or
from the camera, one face at a time.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np

from companion.errors import VisionError
from companion.vision import taught
from companion.vision.boxes import centre_inside
from companion.vision.custom import CustomDice
from companion.vision.files import PICTURES, read_picture, unreadable
from companion.vision.pictures import as_bgr
from companion.vision.reader import DiceReader
from companion.vision.taught import TaughtSet

RADIUS = 0.25  # the least cosine distance a taught face accepts a new throw within
NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")


def check_name(name: str) -> str:
    if not NAME.match(name):
        raise VisionError(
            f"bad die name {name!r}: use 1-40 lower-case letters, digits, - or _, "
            "for example commerce or tribes",
            code="vision/bad-name",
        )
    return name


def die_path(data_dir: Path, name: str) -> Path:
    return data_dir / "dice" / f"{check_name(name)}.json"


def load_die(data_dir: Path, name: str) -> CustomDice | TaughtSet:
    """The die (or set of standard dice) taught as ``name`` under ``data_dir``; a clear
    error if there is none."""
    path = die_path(data_dir, name)
    if not path.exists():
        raise VisionError(
            f"no taught die called {name!r} (looked for {path}); teach it with "
            f"`companion teach {name}` (or `companion teach {name} --standard` for the "
            "table's own pip dice)",
            code="vision/unknown-die",
        )
    try:
        saved = json.loads(path.read_text())
    except (OSError, ValueError):
        saved = None  # CustomDice.load names what is wrong with it
    if not isinstance(saved, dict) or saved.get("kind") != taught.KIND:
        return CustomDice.load(path)
    try:
        return TaughtSet.from_json(saved)
    except (ValueError, KeyError, TypeError) as exc:
        raise VisionError(
            f"cannot read the taught set {path}: {exc}. Teach it again with "
            f"`companion teach {name} --standard`."
        ) from exc


def embed_show(reader: DiceReader, img: np.ndarray) -> np.ndarray:
    """The embedding of the one die in ``img`` (the most certain die if several)."""
    img = as_bgr(img)
    found = shown_boxes(reader, img)
    if not found:
        raise VisionError(
            "no die found in this show: put one die in the middle of the picture",
            code="vision/no-die",
        )
    box = max(found, key=lambda f: f[1])[0]
    return reader.symbol_embeddings(img, [box])[0]


def show_dice(reader: DiceReader, img: np.ndarray) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """How every die in a show of a standard set (all of them with one face up) is read by
    each classifier that reads standard dice (``DiceReader.every_reading``): {file: (the
    six faces' probabilities (N, 6), embeddings (N, 64))}. A box the face classifier reads
    as "not a die" is left out."""
    img = as_bgr(img)
    readings = reader.every_reading(img, [box for box, _ in shown_boxes(reader, img)])
    die = are_dice(reader, readings)
    if not die.any():
        raise VisionError(
            "no die found in this show: put the set's dice, all with the same face up, "
            "under the camera",
            code="vision/no-die",
        )
    return face_readings(reader, readings, die)


def shown_boxes(reader: DiceReader, img: np.ndarray) -> list:
    """The boxes (with their heat) of the dice in a show: the full pass's, and a die held
    close to the camera (``close_up_boxes``)."""
    found = reader.detect(img)
    return found + close_up_boxes(reader, img, found)


def are_dice(reader: DiceReader, readings: dict) -> np.ndarray:
    """Which boxes of ``readings`` ({file: (probabilities, embeddings)}) hold a die: those
    the face classifier (the first) does not read as "not a die"."""
    first = next(iter(readings.values()))[0]
    return first.argmax(1) != reader.classes.index("not-a-die")


def face_readings(
    reader: DiceReader, readings: dict, die: np.ndarray
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """``readings`` of the boxes ``die`` marks, each with the six faces' columns only."""
    at = [reader.classes.index(f) for f in taught.FACES]
    return {file: (p[die][:, at], e[die]) for file, (p, e) in readings.items()}


def learn_standard(
    reader: DiceReader, name: str, shows: dict[str, list[dict[str, tuple]]]
) -> TaughtSet:
    """A taught set of standard dice from ``shows``: face ("1".."6") -> each show's
    ``show_dice``. The dice of each show's n-th picture share a fold of the
    cross-validation (``taught.choose``): dice of one picture were lit and placed alike."""
    if wrong := sorted(set(shows) - set(taught.FACES)):
        raise VisionError(
            f"a standard die's faces are 1 to 6; the shows name {', '.join(map(repr, wrong))}: "
            "name the folders 1, 2, 3, 4, 5 and 6",
            code="vision/bad-faces",
        )
    shown = []
    for face, pictures in shows.items():
        for k, show in enumerate(pictures):
            dice = len(next(iter(show.values()))[0])
            shown.append((show, [taught.FACES.index(face)] * dice, k % taught.FOLDS))
    return learn_shown(reader, name, shown)


def learn_shown(reader: DiceReader, name: str, shown: list[tuple[dict, list, int]]) -> TaughtSet:
    """A taught set of standard dice from ``shown``: for each picture shown, how each
    classifier read its dice ({file: (probabilities of the six faces, embeddings)}), each
    die's face (0..5) and the picture's fold of the cross-validation."""
    readings: dict[str, list] = {}
    labels, folds = [], []
    for found, faces, fold in shown:
        for file, reading in found.items():
            readings.setdefault(file, []).append(reading)
        labels += faces
        folds += [fold] * len(faces)
    if not labels:
        raise VisionError("no die shown", code="vision/too-few-shows")
    return taught.teach_set(
        name,
        readings,
        np.array(labels),
        np.array(folds),
        reader.min_confidence,
        reader.taught_id,
    )


def close_up_boxes(reader: DiceReader, img: np.ndarray, found: list) -> list:
    """The close-up boxes (a die held near the camera to show it) that are surer than every
    peak of the full pass inside them (its symbol's parts)."""
    return [
        (box, heat)
        for box, heat in reader.detect_close_ups(img)
        if all(h < heat for b, h in found if centre_inside(b, box))
    ]


def learn(reader: DiceReader, name: str, shows: dict[str, Iterable[np.ndarray]]) -> CustomDice:
    """A custom die from ``shows``: face name -> pictures of that face up."""
    embedded = {face: [embed_show(reader, img) for img in imgs] for face, imgs in shows.items()}
    return learn_embedded(reader, name, embedded)


def learn_embedded(reader: DiceReader, name: str, shows: dict[str, list[np.ndarray]]) -> CustomDice:
    """A custom die from ``shows``: face name -> the embeddings of its shows (``embed_show``)."""
    if len(shows) < 2:
        raise VisionError("teach at least two faces", code="vision/too-few-faces")
    faces, radius, kept = {}, {}, {}
    for face, embs in shows.items():
        if not embs:
            raise VisionError(f"no show of face {face!r}", code="vision/no-shows")
        kept[face] = np.array(embs, np.float32)
        mean = np.mean(embs, axis=0)
        faces[face] = (mean / np.linalg.norm(mean)).astype(np.float32)
        # How far a new throw of this face may land: twice as far as its farthest show
        # (a face that looks different from each side gets more room), at least the default.
        spread = max(1 - float(e @ faces[face]) for e in embs)
        radius[face] = max(RADIUS, 2 * spread)
    die = CustomDice(name, faces, RADIUS, model=reader.teach_id, radius=radius, shows=kept)
    _check_distinct(die)
    return die


def _check_distinct(die: CustomDice) -> None:
    names = list(die.faces)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            if _alike(die, a, b):
                raise VisionError(
                    f"faces {a!r} and {b!r} look the same to the reader; show them "
                    "again, in better light, or merge them",
                    code="vision/ambiguous",
                )


# Two faces look the same when at least this share of their shows have their nearest other
# show on the other face, as a throw is read (``CustomDice.match``). On rendered six-symbol
# dice taught from five places, it refused 1 of
# 10 dice with distinct faces and 9 of 10 with one symbol under two names; the faces' means
# within 0.05 (the rule before, kept for a face shown once) refused 9 and 10.
ALIKE = 1 / 3


def _alike(die: CustomDice, a: str, b: str) -> bool:
    shows_a, shows_b = die.shows[a], die.shows[b]
    if len(shows_a) < 2 or len(shows_b) < 2:  # a face shown once has no other show to be near
        return 1 - float(die.faces[a] @ die.faces[b]) < 0.05
    both = np.vstack([shows_a, shows_b])
    near = both @ both.T
    np.fill_diagonal(near, -np.inf)
    side = np.arange(len(both)) >= len(shows_a)
    return bool((side[near.argmax(1)] != side).mean() >= ALIKE)


def shows_from_folder(
    folder: Path, embed: Callable[[np.ndarray], np.ndarray] | None = None
) -> dict[str, list[np.ndarray]]:
    """Each face's shows from ``folder/<face>/``: the pictures, or with ``embed`` (such as
    ``embed_show``) their embeddings. A picture that cannot be read, or that ``embed``
    cannot use (no die in it), is named with its path."""
    if not folder.is_dir():
        raise VisionError(
            f"no folder {folder}: it should hold one sub-folder per face, each with "
            "pictures of that face up",
            code="vision/no-folder",
        )
    shows: dict[str, list[np.ndarray]] = {}
    # a hidden folder (a viewer's .thumbnails, .git) is no face
    for sub in sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")):
        images = []
        for path in sorted(sub.iterdir()):
            if path.suffix.lower() not in PICTURES or path.name.startswith("."):
                continue  # a file that is no picture (notes, a viewer's thumbnails)
            img = read_picture(path)
            if img is None:  # a show left out silently would teach the die without it
                raise VisionError(
                    f"{path}: {unreadable(path)}; or move it out of {sub}",
                    code="vision/bad-show",
                )
            if embed is not None:
                try:
                    img = embed(img)
                except VisionError as exc:
                    raise VisionError(f"{path}: {exc.message}", code="vision/bad-show") from None
            images.append(img)
        if images:
            shows[sub.name] = images
    return shows


# How many times each face is shown from the camera, the die moved and turned in between.
# Rendered symbol dice, 10 dice of six faces, each face thrown 20 times: taught from five
# frames of one placement, 75.9% read right and 6.8% wrong; from three placements, 84.7%
# and 2.5%; from five, 89.9% and 1.4%.
PLACEMENTS = 5
# Frames let go after each Enter: a USB webcam's frames wait in OpenCV's V4L2 buffers (four
# by default, DEFAULT_V4L_BUFFERS), taken before the die was moved. Where frames are new
# (the Pi camera), they cost four frame times, about a sixth of a second at 25 a second.
STALE = 4


def face_names(text: str) -> list[str]:
    """The faces ``--faces`` names (comma-separated), each once; a clear error otherwise."""
    names = [n.strip() for n in text.split(",")]
    if any(not n for n in names):
        raise VisionError(
            f"an empty face name in --faces {text!r}: name each face once, for example "
            "--faces wood,stone,fish",
            code="vision/bad-faces",
        )
    if twice := sorted({n for n in names if names.count(n) > 1}):
        raise VisionError(
            f"--faces names {', '.join(map(repr, twice))} more than once: name each face once",
            code="vision/bad-faces",
        )
    if len(names) < 2:
        raise VisionError(
            f"--faces names one face ({names[0]!r}): teach at least two, for example "
            "--faces wood,stone",
            code="vision/too-few-faces",
        )
    return names


def shows_from_camera(
    read: Callable[[], np.ndarray | None],
    faces: list[str],
    ask: Callable[[str], object],
    placements: int = PLACEMENTS,
    stale: int = STALE,
    embed: Callable[[np.ndarray], object] | None = None,
    what: str = "the die",
) -> dict[str, list]:
    """A frame of ``what`` (the die, or the set's dice) with each face up in ``placements``
    places: a die is told by how its symbol looks
    wherever it lands, and frames of one placement only show one light and one slant. After
    each Enter the first ``stale`` frames are let go: the camera took them before. With
    ``embed`` (such as ``embed_show``) each frame's embedding is kept instead, and a frame
    it cannot use (no die in it) is asked for again at once, not found after every face
    has been shown."""

    def take() -> np.ndarray:
        for _ in range(stale + 1):
            frame = None
            while frame is None:
                frame = read()
        return frame

    shows = {}
    for face in faces:
        frames = []
        for k in range(1, placements + 1):
            again = "" if k == 1 else ", moved and turned"
            ask(
                f"Put {what} with {face!r} up under the camera{again} ({k} of {placements}) "
                "and press Enter"
            )
            frame = take()
            while embed is not None:
                try:
                    frame = embed(frame)
                    break
                except VisionError as exc:
                    ask(f"{exc.message}; show {face!r} again ({k} of {placements}) and press Enter")
                    frame = take()
            frames.append(frame)
        shows[face] = frames
    return shows

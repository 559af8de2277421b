"""The embedded demo: a replayed camera showing dice being rolled, for `make run`.

The frames are drawn once by the dice renderer (companion.training.render) and kept
as JPEG files in the data folder, then replayed like a folder of camera frames. Like
dice on a real table, the replay holds still on the last roll until the game wants a
new one; then a hand sweeps in, the dice tumble and come to rest on the next roll. The
rolls have as many dice as the demo's game rolls (``demo_rolls``).
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from companion.errors import VisionError
from companion.vision.camera import CameraError, ReplayCamera

log = logging.getLogger(__name__)

# The demo's rolls of five dice; the fourth shows one face three times (The First Island, the
# demo's default game, allows a reroll then). A game rolling fewer or more dice gets each roll
# cut to its count, or continued from its start.
ROLLS = [
    [1, 2, 3, 4, 5],
    [6, 1, 2, 2, 4],
    [3, 5, 6, 1, 3],
    [5, 5, 2, 5, 6],
    [2, 4, 6, 3, 1],
    [4, 1, 5, 6, 2],
]
FRAMES_PER_ROLL = 4 + 3 + 12  # hand, tumbling, at rest (see scenes.roll_sequence)
VERSION = 1


def demo_rolls(count: int = 5) -> list[list[int]]:
    """The demo's rolls with ``count`` dice each."""
    return [[roll[i % len(roll)] for i in range(count)] for roll in ROLLS]


def demo_frames(folder: Path, count: int = 5) -> Path:
    """The demo's camera frames of ``count`` dice in ``folder``, drawn the first time, and
    again whenever one is missing or empty (deleted, or written to a full disk): the demo
    counts its frames to know where each roll comes to rest."""
    rolls = demo_rolls(count)
    stamp = folder / "frames.json"
    want = {"version": VERSION, "rolls": rolls}
    names = [f"frame-{i:04d}.jpg" for i in range(len(rolls) * FRAMES_PER_ROLL)]
    try:
        whole = json.loads(stamp.read_text()) == want and all(
            (folder / n).stat().st_size > 0 for n in names
        )
    except (OSError, ValueError):
        whole = False
    if whole:
        return folder
    from companion.training.scenes import roll_sequence

    folder.mkdir(parents=True, exist_ok=True)
    stamp.unlink(missing_ok=True)  # until every frame is written again
    log.info("drawing the demo camera's frames in %s (once)", folder)
    for name, frame in zip(names, roll_sequence(2024, rolls), strict=True):
        jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 90])[1]
        (folder / name).write_bytes(jpeg.tobytes())  # an OSError (a full disk) is raised
    stamp.write_text(json.dumps(want))
    return folder


class DemoCamera:
    """Replays the demo frames; between rolls it holds still until ``wants_roll()``."""

    def __init__(self, folder: Path, wants_roll: Callable[[], bool], fps: float = 6.0):
        self._replay = ReplayCamera(folder, fps=fps, loop=True)
        self.name = f"demo:{folder}"
        self.wants_roll = wants_roll
        self._held: np.ndarray | None = None
        self._in_roll = 0  # frames into the current roll

    def read(self) -> np.ndarray:
        if self._held is not None and not self.wants_roll():
            self._replay.pace()
            return self._held
        frame = self._replay.read()
        self._in_roll += 1
        if self._in_roll == FRAMES_PER_ROLL:  # at rest on this roll: hold it
            self._in_roll = 0
            self._held = frame
        else:
            self._held = None
        return frame

    def detail(self) -> None:
        return None

    def close(self) -> None:
        self._replay.close()


def open_demo_camera(folder: Path, wants_roll: Callable[[], bool], count: int = 5) -> DemoCamera:
    """The demo's camera, rolling ``count`` dice whenever ``wants_roll()``."""
    try:
        return DemoCamera(demo_frames(folder, count), wants_roll)
    except OSError as exc:
        raise CameraError(
            f"cannot draw the demo frames in {folder}: {exc}", code="camera/missing"
        ) from exc


# -- a game whose dice change from roll to roll ------------------------------------------
SYMBOL_SHOWS = 16  # rendered shows of each symbol face the demo's die is taught from
SYMBOL_SIDE = 64  # px: the demo's symbol dice at 640x480, large enough to tell the symbols


def demo_faces(rng: np.random.Generator, spec, lying: list) -> list:
    """The dice a roll for ``spec`` shows: each die a face the spec names (drawn as its
    symbol where the renderer has one by that name, else as pips), of the die's colour where
    the spec names one; with dice of one colour wanted, the dice of the other colour from
    the roll before (``lying``) still lie on the table."""
    from companion.training.render import COMMERCE, SYMBOLS, Face
    from companion.vision.tone import TONES

    out = []
    for i in range(spec.count):
        value = int(rng.choice(sorted(spec.faces)))
        name = str(spec.faces[value]).lower()
        colour = spec.dice[i] if i < len(spec.dice) and spec.dice[i] in TONES else None
        symbol = name in (*COMMERCE, *SYMBOLS)
        out.append(Face("symbol", name, colour) if symbol else Face("pips", value, colour))
    colours = {f.body for f in out}
    return [f for f in lying if f.body is not None and f.body not in colours] + out


class RollingDemoCamera:
    """The demo's camera for a game whose dice change from roll to roll (how many, which
    colour, symbols): each roll is drawn when the game asks for it, for the dice it asks
    for (``wanted()``, its ``DiceSpec``), then held still until the next is wanted."""

    def __init__(
        self, wanted: Callable, wants_roll: Callable[[], bool], seed: int = 2024, fps: float = 6.0
    ):
        from companion.vision.camera import Pace

        self.name = "demo:rolled as the game asks"
        self.wanted, self.wants_roll, self.seed = wanted, wants_roll, seed
        self._pace = Pace(fps)
        self._rng = np.random.default_rng(seed)
        self._frames = None  # the roll being drawn, frame by frame
        self._held: np.ndarray | None = None
        self._lying: list = []  # the dice at rest on the table
        self._rolls = 0

    def read(self) -> np.ndarray:
        from companion.training.scenes import roll_sequence

        self._pace.wait()
        if self._frames is None:
            spec = self.wanted() if self.wants_roll() else None
            if spec is None:
                if self._held is None:  # the empty table, before the first roll
                    self._held = list(roll_sequence(self.seed, [[]], rest_frames=1))[-1]
                return self._held
            self._lying = demo_faces(self._rng, spec, self._lying)
            self._rolls += 1
            self._frames = roll_sequence(
                self.seed, [self._lying], size=SYMBOL_SIDE, dice_seed=self.seed + self._rolls
            )
        frame = next(self._frames, None)
        if frame is None:  # the roll lies still: hold its last frame
            self._frames = None
            return self._held
        self._held = frame
        return frame

    def detail(self) -> None:
        return None

    def close(self) -> None:
        self._frames = None


def demo_die(folder: Path, name: str, faces: tuple[str, ...], reader):
    """The symbol die ``faces`` (the renderer's symbols) taught as ``name`` from rendered
    shows, white and black, once: kept in ``folder`` and taught again when the face
    classifier has changed."""
    from companion.training import render, scenes
    from companion.vision.custom import CustomDice
    from companion.vision.teach import embed_show, learn_embedded

    path = folder / f"{name}.json"
    if path.exists():
        with contextlib.suppress(VisionError):
            die = CustomDice.load(path)
            if die.model == reader.teach_id and set(die.faces) == set(faces):
                return die
    log.info("teaching the demo's %s die from rendered shows (once)", name)
    shows = {}
    for i, face in enumerate(faces):
        embedded = []
        for k in range(SYMBOL_SHOWS):
            rng = np.random.default_rng(1000 + 37 * i + k)
            body = "white" if k % 2 == 0 else "black"
            img, _ = scenes.scene(
                rng,
                480,
                640,
                faces=[render.Face("symbol", face, body)],
                size_range=(SYMBOL_SIDE * 0.85, SYMBOL_SIDE * 1.1),
            )
            embedded.append(embed_show(reader, img))
        shows[face] = embedded
    die = learn_embedded(reader, name, shows)
    die.save(path)
    return die


def rolls_dice(game: str | None) -> bool:
    """Does ``game`` ever want dice (it has its own ``dice``), if not at its start? Its demo's
    camera then draws each roll as it is asked for."""
    from companion.engine.game import GameBase, get_game

    return game is not None and type(get_game(game)).dice is not GameBase.dice


def taught_demo_die(database: Path, game: str, symbols: tuple[str, ...], threads: int):
    """The symbol die the demo's game rolls, taught from rendered shows (once), or why not."""
    from companion.errors import CompanionError
    from companion.vision.reader import DiceReader

    try:
        reader = DiceReader(threads=threads)
        return demo_die(database.parent / "dice", f"demo-{game}", symbols, reader), ""
    except CompanionError as exc:
        return None, f"the demo's die could not be taught: {exc}"

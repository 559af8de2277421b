"""The empty table, once the camera has seen it, finds what the detector missed."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.training import render, scenes
from companion.vision.camera import ReplayCamera
from companion.vision.reader import DiceReader, DieReading
from companion.vision.settle import Settler
from companion.vision.supervisor import CameraSupervisor
from companion.vision.table import EmptyTable
from companion.vision.watch import RollWatcher

pytestmark = pytest.mark.integration
VALUES = [2, 5, 6]


def table_and_roll(seed: int = 3):
    """A still empty table (a board with printed lines), then three dice at rest on it."""
    rng = np.random.default_rng(seed)
    table = scenes.lighting(rng, scenes.background(rng, 480, 640))
    for x in range(20, 640, 45):  # the board's printed grid
        cv2.line(table, (x, 0), (x, 479), (40, 40, 40), 3)
    for y in range(20, 480, 45):
        cv2.line(table, (0, y), (639, y), (40, 40, 40), 3)
    rolled = table.copy()
    boxes = [
        render.draw_die(rng, rolled, render.Face("pips", face), (x, y), 58, 0.3, 0.1).box
        for face, (x, y) in zip(VALUES, [(150, 200), (330, 260), (500, 180)], strict=True)
    ]

    def shots(img, n):
        return [
            scenes.finish(np.random.default_rng(seed * 100 + i), img, 0.5, False) for i in range(n)
        ]

    return shots(table, 8), shots(rolled, 8), boxes


def watch(frames, folder: Path, reader: DiceReader):
    folder.mkdir()
    for i, frame in enumerate(frames):
        cv2.imwrite(str(folder / f"f{i:03d}.png"), frame)
    watcher = RollWatcher(
        CameraSupervisor(lambda: ReplayCamera(folder, fps=0, loop=False)),
        reader,
        Settler(),
        expected=lambda: 3,
    )
    events = [e for e in (watcher.step() for _ in frames) if e is not None]
    return watcher, events


def test_dice_the_detector_misses_are_found_on_a_table_seen_empty(tmp_path):
    empty, rolled, _ = table_and_roll()
    blind = DiceReader(detect_threshold=1.01)  # a detector that finds nothing at all,
    blind.faint_threshold = None  # not even a faint peak
    # never saw the table empty: the reader alone finds nothing
    _, events = watch(rolled, tmp_path / "alone", blind)
    assert [e.message for e in events] == ["0 of 3 dice seen"]
    # saw it empty first: the three dice stand out from it and the classifier reads them
    watcher, events = watch(empty + rolled, tmp_path / "seen", blind)
    assert watcher.table.ready
    assert [e.message for e in events[:1]] == ["0 of 3 dice seen"]  # the empty table at rest
    assert [(e.kind, sorted(e.values)) for e in events[1:]] == [("roll", VALUES)]


def test_dice_found_on_a_table_seen_empty_are_read_from_the_frames_detail():
    """The patches that stand out from the empty table are read, as the reader's own boxes
    are, from the frame's larger picture when the camera gives one (``detail``)."""
    empty, rolled, _ = table_and_roll()
    blind = DiceReader(detect_threshold=1.01)
    blind.faint_threshold = None
    table = EmptyTable()
    for frame in empty[:3]:
        table.check(frame, [], blind)
    assert table.ready
    larger = cv2.resize(rolled[0], None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
    assert sorted(d.value for d in table.check(rolled[0], [], blind, larger)) == sorted(VALUES)
    bare = cv2.resize(empty[0], None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
    assert table.check(rolled[0], [], blind, bare) == []  # no die in it where they stand out


def test_a_box_on_unchanged_table_is_dropped_and_a_knocked_camera_forgets_the_table():
    empty, rolled, boxes = table_and_roll()
    reader = DiceReader()
    table = EmptyTable()
    for frame in empty[:3]:
        assert table.check(frame, [], reader) == []
    assert table.ready
    real = reader.read_boxes(rolled[0], boxes)  # the dice where they are drawn
    assert len(real) == 3
    ghost = DieReading((40, 380, 98, 438), 4, 0.9, "4")  # bare table, where no die lies
    kept = table.check(rolled[0], [*real, ghost], reader)
    assert ghost not in kept and set(kept) == set(real)  # the three dice stay
    # the camera is knocked: the picture no longer fits the table, so it is forgotten
    moved = np.roll(rolled[0], 20, axis=(0, 1))
    table.check(moved, reader.read(moved), reader)
    assert not table.ready

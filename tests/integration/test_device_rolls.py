"""The device feeding the camera's rolls into a game: the demo's frames, settled rolls as
chance actions, rolls to confirm, a lost camera, the button."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.device.demo import FRAMES_PER_ROLL, demo_frames
from companion.device.demo import ROLLS as DEMO_ROLLS
from companion.device.device import Device
from companion.engine.hub import Hub
from companion.engine.store import EventStore
from companion.vision.camera import ReplayCamera
from companion.vision.reader import DiceReader
from companion.vision.settle import Settler
from companion.vision.supervisor import CameraSupervisor
from companion.vision.watch import RollWatcher
from tests.helpers import ROLLS

pytestmark = pytest.mark.integration


def device_for(folder: Path, tmp_path: Path, settler: Settler | None = None):
    hub = Hub(EventStore(tmp_path / "games.db"))
    session = hub.create("first-island", 2, {"variant": "easy", "s_card": 4})
    watcher = RollWatcher(
        CameraSupervisor(lambda: ReplayCamera(folder, fps=0, loop=False)),
        DiceReader(),
        settler or Settler(),
        expected=lambda: 5,
    )
    return hub.attach(Device(hub, watcher)), session


def run_frames(device: Device, n: int) -> list[str]:
    states = []
    for _ in range(n):
        device.step()
        states.append(device.state)
    return states


def test_the_demo_frames_are_drawn_again_when_one_is_lost(tmp_path, monkeypatch):
    # The demo counts frames to know where each roll rests: a frame deleted, or left empty by
    # a full disk, used to stay lost for good behind the folder's stamp.
    import companion.device.demo

    monkeypatch.setattr(companion.device.demo, "ROLLS", [[1, 2, 3, 4, 5]])  # one roll: quicker
    folder = demo_frames(tmp_path / "demo")
    frames = sorted(folder.glob("frame-*.jpg"))
    assert len(frames) == FRAMES_PER_ROLL
    drawn = {p.name: p.read_bytes() for p in frames}
    frames[3].unlink()
    frames[7].write_bytes(b"")
    demo_frames(folder)
    assert {p.name: p.read_bytes() for p in sorted(folder.glob("frame-*.jpg"))} == drawn


def test_the_demo_frames_are_drawn_and_written_one_at_a_time(tmp_path):
    # All 114 frames used to be drawn into a list before the first was written: about 100 MB
    # more at `make run`'s first start (a Pi Zero 2 W has 512 MB in all).
    import tracemalloc

    import companion.device.demo

    tracemalloc.start()
    try:
        demo_frames(tmp_path / "demo")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    frame = 480 * 640 * 3  # bytes; the renderer's float work takes a few frames' worth more
    every = len(companion.device.demo.ROLLS) * FRAMES_PER_ROLL
    assert peak < every * frame, f"{peak / frame:.0f} frames' worth held at once, of {every}"


def test_a_settled_roll_enters_the_game_as_a_camera_chance_action(demo_folder, tmp_path):
    device, session = device_for(demo_folder, tmp_path)
    states = run_frames(device, FRAMES_PER_ROLL)  # the first roll
    assert "reading" in states
    (entry,) = [e for e in session.entries if e.payload.get("type") == "dice_rolled"]
    assert sorted(entry.payload["values"]) == sorted(DEMO_ROLLS[0])
    assert entry.payload["source"] == "camera" and 0.5 < entry.payload["confidence"] <= 1
    # the second roll comes while players are marking: the game is not waiting for it
    run_frames(device, FRAMES_PER_ROLL)
    assert len([e for e in session.entries if e.payload.get("type") == "dice_rolled"]) == 1
    assert "not waiting for a roll" in device.message


def test_an_unsure_roll_waits_for_a_person_and_a_confirmed_roll_clears_it(rolls_folder, tmp_path):
    device, session = device_for(rolls_folder, tmp_path, Settler(min_confidence=1.01))
    run_frames(device, FRAMES_PER_ROLL)
    assert device.state == "needs confirmation"
    assert device.pending["game_id"] == session.game_id
    assert device.pending["values"] == [None] * 5
    assert not [e for e in session.entries if e.payload.get("type") == "dice_rolled"]
    session.act({"type": "dice_rolled", "values": ROLLS[0], "source": "confirmed"})
    assert device.pending is None and device.state == "waiting for a roll"


def test_a_lost_camera_is_reported_and_the_game_goes_on(tmp_path):
    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "a.png"), np.zeros((48, 64, 3), np.uint8))
    device, session = device_for(folder, tmp_path)
    run_frames(device, 1)
    (folder / "a.png").unlink()
    (folder / "b.png").mkdir()  # unreadable: as if the camera were unplugged
    device.watcher.camera.camera = ReplayCamera(folder, fps=0)
    device.step()
    assert device.state == "camera lost" and "could not be read" in device.message
    session.act({"type": "dice_rolled", "values": ROLLS[0]})  # dice by hand meanwhile
    assert session.state.roll == tuple(ROLLS[0])


def test_the_button_advances_and_a_hold_undoes(tmp_path):
    hub = Hub(EventStore(tmp_path / "games.db"))
    session = hub.create("first-island", 1, {"difficulty": "casual"})
    device = hub.attach(Device(hub))
    session.act({"type": "dice_rolled", "values": ROLLS[0]})
    device.press()  # the player has not marked yet: the button means nothing now
    assert device.message == "button: it does nothing now" and session.seq == 1
    for hex_, picks in (((0, 0), (1, 2)), ((1, 0), (3, 4))):
        session.act({"type": "mark", "seat": 0, "hex": hex_, "picks": picks, "axis": 0})
    device.press()  # everyone has marked: the game's button is "Next round"
    assert device.message == "button: next round" and session.state.round == 2
    device.hold()
    assert session.state.round == 1 and device.message == "button: undid the last action"


# -- teach ------------------------------------------------------------------------------
# Three symbols the classifier's embedding tells apart. (It barely tells a star from a cross;
# the model card lists this limit.)


def test_the_demo_plays_any_game_its_camera_rolling_that_games_dice(tmp_path, monkeypatch):
    # `companion serve --demo score-pad`: a 2-player sheet, its camera replaying rolls of the
    # sheet's two dice (the First Island demo's rolls, cut to two), each read into the game
    import companion.device.demo
    from companion.device.demo import open_demo_camera
    from companion.device.serve import demo_dice, ensure_demo_game

    monkeypatch.setattr(companion.device.demo, "ROLLS", [[6, 2, 3, 4, 5]])  # one roll: quicker
    assert (demo_dice("first-island"), demo_dice("score-pad")) == (5, 2)
    hub = Hub(EventStore(tmp_path / "demo.db"))
    game_id = ensure_demo_game(hub.store, "score-pad")
    assert ensure_demo_game(hub.store, "score-pad") == game_id  # resumed, not made again
    session = hub.session(game_id)
    assert (session.game.name, session.players) == ("score-pad", 2)
    camera = open_demo_camera(tmp_path / "frames", lambda: True, count=2)
    watcher = RollWatcher(CameraSupervisor(lambda: camera), DiceReader(), expected=lambda: 2)
    device = hub.attach(Device(hub, watcher))
    run_frames(device, FRAMES_PER_ROLL)
    assert sorted(session.state.roll) == [2, 6]
    assert device.message in ("(last roll read: 6 2)", "(last roll read: 2 6)")

"""`companion watch` and the camera loop: one roll event per settled roll, read from a
replayed or live camera."""

from __future__ import annotations

import json
from collections import Counter

import cv2
import numpy as np
import pytest

from companion.cli.main import main
from companion.training import scenes
from companion.vision.camera import ReplayCamera
from companion.vision.reader import DiceReader
from companion.vision.settle import Settler
from companion.vision.supervisor import CameraSupervisor
from companion.vision.watch import RollWatcher
from tests.helpers import ROLLS

pytestmark = pytest.mark.integration


def test_watch_prints_one_event_per_roll_from_a_replayed_camera(config, rolls_folder, capsys):
    frames = len(list(rolls_folder.iterdir()))
    assert (
        main(
            [
                "watch",
                "--camera",
                f"replay:{rolls_folder}@0",
                "--dice",
                "5",
                "--frames",
                str(frames),
            ]
        )
        == 0
    )
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(events) == 2, events  # one per roll, none while the hand and dice move
    for event, truth in zip(events, ROLLS, strict=True):
        # every die is read right or reported unsure, never guessed wrong
        assert event["kind"] in ("roll", "unsure")
        assert len(event["values"]) == 5
        read = [v for v in event["values"] if v is not None]
        assert not Counter(read) - Counter(truth), (read, truth)
        assert (event["kind"] == "roll") == (len(read) == 5)


def test_watch_reads_a_video_or_a_replay_to_its_end_and_stops(config, tmp_path, capsys, caplog):
    # A recorded game: at its end watch used to say "stopped giving frames (unplugged?)",
    # open it again two seconds later and print its rolls once more, for ever; a folder of
    # frames started again at once.
    frames = list(scenes.roll_sequence(99, ROLLS[:1]))
    video = tmp_path / "game.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, (640, 480))
    for frame in frames:
        writer.write(frame)
    writer.release()
    argv = ["watch", "--camera", f"video:{video}", "--dice", "5", "--frames", "200"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    events = [json.loads(line) for line in out.splitlines()]
    assert [e["kind"] for e in events] in (["roll"], ["unsure"]), events
    assert f"companion: the video {video} has ended" in err and "unplugged" not in err
    folder = tmp_path / "frames"  # the same game as a folder of frames: read once, too
    folder.mkdir()
    for i, frame in enumerate(frames):
        cv2.imwrite(str(folder / f"f{i:03d}.png"), frame)
    assert main(["watch", "--camera", f"replay:{folder}@0", "--frames", "200"]) == 0
    out, err = capsys.readouterr()
    assert [json.loads(line)["kind"] for line in out.splitlines()] in (["roll"], ["unsure"])
    assert f"companion: the replay of {folder} has ended" in err
    # said once, by watch: not logged as well (the same line twice on stderr)
    assert not [r for r in caplog.records if "has ended" in r.getMessage()]


def test_watch_gives_a_roll_left_to_confirm_again_once_a_second_look_reads_it(
    config, tmp_path, capsys
):
    frames = list(scenes.roll_sequence(99, ROLLS[:1]))
    rest = frames[-1]
    hidden = rest.copy()  # the die at the left hidden as the camera's noise would flicker it
    x0, y0, x1, y1 = min((d.box for d in DiceReader().read(rest)), key=lambda b: b[0])
    ring = np.concatenate([rest[y0 - 4, x0:x1], rest[y1 + 4, x0:x1]])
    # painted over inside its box: too little of the picture changes to count as a move
    hidden[y0 + 3 : y1 - 3, x0 + 3 : x1 - 3] = np.median(ring, axis=0)
    # after the frame the dice land in (still moving against the one before), the first five
    # still frames find it in three (a die left unsure), the next five in all
    replay = [*frames[:-12], rest, hidden, rest, hidden, rest, rest, *[rest] * 5]
    for i, frame in enumerate(replay):
        cv2.imwrite(str(tmp_path / f"f{i:03d}.png"), frame)
    args = [
        "watch",
        "--camera",
        f"replay:{tmp_path}@0",
        "--dice",
        "5",
        "--frames",
        str(len(replay)),
    ]
    assert main(args) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(e["kind"], e.get("revises", False)) for e in events] == [
        ("unsure", False),
        ("roll", True),
    ]
    unsure = [b for b, v in zip(events[0]["boxes"], events[0]["values"], strict=True) if v is None]
    assert len(unsure) == 1 and unsure[0][0] < x1 and unsure[0][2] > x0  # the hidden die
    assert sorted(events[1]["values"]) == sorted(ROLLS[0])


def test_watch_says_when_the_count_is_wrong(config, rolls_folder, capsys):
    frames = len(list(rolls_folder.iterdir()))
    main(["watch", "--camera", f"replay:{rolls_folder}@0", "--dice", "6", "--frames", str(frames)])
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [e["message"] for e in events] == ["5 of 6 dice seen"] * 2


class CountingReader(DiceReader):
    """The shipped reader, counting the frames it reads."""

    reads = 0

    def read(self, img, detail=None):
        self.reads += 1
        return super().read(img, detail)


def test_dice_left_at_rest_are_not_read_again_until_the_picture_changes(tmp_path):
    frames = list(scenes.roll_sequence(99, ROLLS))
    per_roll = len(frames) // len(ROLLS)
    rng = np.random.default_rng(3)
    # the first roll's dice left on the table for 40 frames, with a camera's sensor noise
    left = [
        np.clip(frames[per_roll - 1] + rng.normal(0, 2, frames[0].shape), 0, 255).astype(np.uint8)
        for _ in range(40)
    ]
    replay = [*frames[:per_roll], *left, *frames[per_roll:]]
    for i, frame in enumerate(replay):
        cv2.imwrite(str(tmp_path / f"f{i:03d}.png"), frame)
    reader = CountingReader()
    watcher = RollWatcher(
        CameraSupervisor(lambda: ReplayCamera(tmp_path, fps=0, loop=False)),
        reader,
        Settler(expected=5),
    )
    events = [watcher.step() for _ in range(per_roll)]
    first_roll_reads = reader.reads
    events += [watcher.step() for _ in left]
    assert reader.reads == first_roll_reads  # the same picture: nothing read again
    events += [watcher.step() for _ in range(per_roll)]
    assert reader.reads > first_roll_reads  # the next roll is read
    rolls = [e for e in events if e is not None]
    assert len(rolls) == 2  # the dice left on the table were not a new roll
    for event, truth in zip(rolls, ROLLS, strict=True):
        assert not Counter(v for v in event.values if v is not None) - Counter(truth)


def test_dice_of_a_roll_left_unsure_are_read_a_few_windows_more_then_left_alone(tmp_path):
    frames = list(scenes.roll_sequence(99, ROLLS[:1]))
    rng = np.random.default_rng(4)
    left = [
        np.clip(frames[-1] + rng.normal(0, 2, frames[0].shape), 0, 255).astype(np.uint8)
        for _ in range(40)
    ]
    for i, frame in enumerate([*frames, *left]):
        cv2.imwrite(str(tmp_path / f"f{i:03d}.png"), frame)
    reader = CountingReader()
    settler = Settler(expected=5, min_confidence=1.01)  # no die is ever sure: the roll waits
    watcher = RollWatcher(
        CameraSupervisor(lambda: ReplayCamera(tmp_path, fps=0, loop=False)), reader, settler
    )
    events = [e for _ in frames if (e := watcher.step()) is not None]
    assert [e.kind for e in events] == ["unsure"]
    read_by_then = reader.reads
    events += [e for _ in left[:20] if (e := watcher.step()) is not None]
    windows = reader.reads - read_by_then
    assert 0 < windows <= settler.revisions * settler.still_frames  # read again, a while
    assert settler.done
    for _ in left[20:]:
        assert watcher.step() is None
    assert reader.reads == read_by_then + windows  # then the same picture is not read again


class TwoSizes(ReplayCamera):
    """A camera giving two sizes of each frame, as the Pi camera's two streams do: the
    frame at half size to find the dice in, and as it was saved (``detail``) to read them."""

    def read(self):
        self._full = super().read()
        h, w = self._full.shape[:2]
        return cv2.resize(self._full, (w // 2, h // 2), interpolation=cv2.INTER_AREA)

    def detail(self):
        return self._full


def test_the_faces_of_a_roll_are_read_from_the_cameras_larger_picture(tmp_path):
    """A camera that gives each frame at a higher resolution too (the Pi camera's main
    stream): the watcher finds the dice in the analysis frame and the reader reads their
    faces from the larger picture of the same frame, and the roll is still given."""
    for i, frame in enumerate(scenes.roll_sequence(99, ROLLS[:1])):
        big = cv2.resize(frame, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
        cv2.imwrite(str(tmp_path / f"f{i:03d}.png"), big)
    given = []

    class Seeing(DiceReader):
        def read(self, img, detail=None):
            given.append((img.shape, None if detail is None else detail.shape))
            return super().read(img, detail)

    camera = CameraSupervisor(lambda: TwoSizes(tmp_path, fps=0, loop=False))
    watcher = RollWatcher(camera, Seeing(), Settler(expected=5))
    events = [e for _ in range(len(list(tmp_path.iterdir()))) if (e := watcher.step())]
    assert given and set(given) == {((480, 640, 3), (960, 1280, 3))}
    assert [sorted(e.values) for e in events] == [sorted(ROLLS[0])]
    # the boxes are the analysis frame's, where the dice were found (read in an earlier
    # frame of the rest: a pixel or two apart)
    alone = DiceReader().read(watcher.frame)
    assert len(watcher.dice) == len(alone) == 5
    for seen, found in zip(watcher.dice, alone, strict=True):
        assert seen.box == pytest.approx(found.box, abs=3)


def test_watch_without_a_camera_explains(config, capsys):
    assert main(["watch"]) == 2
    assert "no camera: pass --camera" in capsys.readouterr().err


def test_watch_stops_at_once_on_a_camera_spec_it_cannot_understand(config, capsys):
    # an unplugged camera is retried; a misspelt spec never opens, so it is said once and ends
    assert main(["watch", "--camera", "video0", "--frames", "20"]) == 2
    err = capsys.readouterr().err
    assert err.count("unknown camera 'video0'") == 1
    assert "usb:N" in err


@pytest.mark.parametrize("option, value", [("--dice", "0"), ("--dice", "-3"), ("--frames", "x")])
def test_watch_refuses_a_count_below_one(config, capsys, option, value):
    # with --dice 0 every roll would be "5 of 0 dice seen", and none ever given
    with pytest.raises(SystemExit) as info:
        main(["watch", "--camera", "replay:/nonexistent@0", option, value])
    assert info.value.code == 2
    assert f"{option}: must be a whole number from 1 up, not '{value}'" in capsys.readouterr().err


# -- the device: camera rolls into a game ---------------------------------------------------

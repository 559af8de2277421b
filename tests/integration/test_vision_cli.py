"""`companion read`, `watch` and `teach`, and the device feeding camera rolls into a game."""

from __future__ import annotations

import json
import struct
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli.main import main
from companion.device.demo import FRAMES_PER_ROLL, demo_frames
from companion.device.demo import ROLLS as DEMO_ROLLS
from companion.device.device import Device
from companion.engine.store import EventStore
from companion.training import render, scenes
from companion.vision.camera import ReplayCamera, explain
from companion.vision.reader import DOT_VALUE, DiceReader
from companion.vision.settle import Settler
from companion.vision.supervisor import CameraSupervisor
from companion.vision.watch import RollWatcher
from companion.web.hub import Hub
from tests.helpers import read_values, serving, straight_down

pytestmark = pytest.mark.integration
ROLLS = [[1, 2, 3, 4, 5], [6, 6, 2, 3, 1]]


@pytest.fixture(scope="module")
def demo_folder(tmp_path_factory) -> Path:
    """The frames `make run` replays (companion.device.demo)."""
    return demo_frames(tmp_path_factory.mktemp("demo"))


@pytest.fixture(scope="module")
def rolls_folder(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("rolls")
    for i, frame in enumerate(scenes.roll_sequence(99, ROLLS)):
        cv2.imwrite(str(folder / f"f{i:03d}.png"), frame)
    return folder


def test_read_prints_one_json_object_per_image(config, tmp_path, capsys):
    rng = np.random.default_rng(5)
    paths = []
    for i, values in enumerate(([3, 5], [6, 1, 2])):
        img, _ = scenes.scene(
            rng, 480, 640, faces=[render.Face("pips", v) for v in values], size_range=(60, 66)
        )
        paths.append(tmp_path / f"roll{i}.jpg")
        cv2.imwrite(str(paths[-1]), img)
    assert main(["read", "--json", "--annotate", str(tmp_path / "drawn"), *map(str, paths)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["image"] for line in lines] == [str(p) for p in paths]
    assert read_values(lines[0]["dice"]) == [3, 5]
    assert read_values(lines[1]["dice"]) == [1, 2, 6]
    for d in lines[1]["dice"]:
        x0, y0, x1, y1 = d["box"]
        assert 0 <= x0 < x1 <= 640 and 0 <= y0 < y1 <= 480 and 0 < d["confidence"] <= 1
    drawn = cv2.imread(str(tmp_path / "drawn" / "roll1.png"))
    assert drawn.shape == (480, 640, 3)
    assert not np.array_equal(drawn, cv2.imread(str(paths[1])))


def test_read_without_json_prints_a_line_a_picture(config, tmp_path, capsys):
    rng = np.random.default_rng(5)
    for name, values in (("one.png", [4]), ("three.png", [6, 1, 2])):
        img, _ = scenes.scene(
            rng, 480, 640, faces=[render.Face("pips", v) for v in values], size_range=(60, 66)
        )
        cv2.imwrite(str(tmp_path / name), img)
    cv2.imwrite(str(tmp_path / "none.png"), np.full((480, 640, 3), 150, np.uint8))
    names = ("one.png", "three.png", "none.png")
    assert main(["read", *(str(tmp_path / n) for n in names)]) == 0
    one, three, none = capsys.readouterr().out.splitlines()
    assert none == f"{tmp_path / 'none.png'}: no dice found"
    assert one == f"{tmp_path / 'one.png'}: 1 die: 4"
    head, values = three.rsplit(": ", 1)
    assert head == f"{tmp_path / 'three.png'}: 3 dice" and sorted(values.split()) == ["1", "2", "6"]


def test_read_shows_a_dotted_die_by_its_colour_and_json_keeps_its_value(config, tmp_path, capsys):
    # The First Island's colour-dotted dice: a player looks for yellow, not for a 1.
    rng = np.random.default_rng(5)
    colours = ["yellow", "blue", "green"]
    img, _ = scenes.scene(
        rng, 480, 640, faces=[render.Face("dot", c) for c in colours], size_range=(60, 66)
    )
    cv2.imwrite(str(tmp_path / "dots.png"), img)
    assert main(["read", str(tmp_path / "dots.png")]) == 0
    line = capsys.readouterr().out.strip()
    head, shown = line.rsplit(": ", 1)
    assert head == f"{tmp_path / 'dots.png'}: 3 dice" and sorted(shown.split()) == sorted(colours)
    assert main(["read", "--json", str(tmp_path / "dots.png")]) == 0
    (dice,) = [json.loads(x)["dice"] for x in capsys.readouterr().out.splitlines()]
    assert sorted(d["face"] for d in dice) == sorted(f"dot-{c}" for c in colours)
    assert sorted(d["value"] for d in dice) == sorted(DOT_VALUE[c] for c in colours)


def with_orientation(jpeg: bytes, orientation: int) -> bytes:
    """``jpeg`` with an EXIF block whose one tag is Orientation, as a phone held upright
    writes it (6: the picture is stored turned; a viewer turns it 90 degrees clockwise)."""
    tiff = b"II*\x00" + struct.pack("<IH", 8, 1) + struct.pack("<HHII", 0x0112, 3, 1, orientation)
    tiff += struct.pack("<I", 0)
    app1 = b"\xff\xe1" + struct.pack(">H", 8 + len(tiff)) + b"Exif\x00\x00" + tiff
    return jpeg[:2] + app1 + jpeg[2:]


def test_read_takes_pictures_as_phones_and_editors_write_them(config, tmp_path, capsys):
    """A JPEG a phone stored turned (EXIF orientation), a PNG with transparency, a 16-bit PNG
    and a grey JPEG: each is read as a viewer shows it, boxes in that picture's pixels."""
    rng = np.random.default_rng(5)
    img, _ = scenes.scene(
        rng, 480, 640, faces=[render.Face("pips", v) for v in (3, 5)], size_range=(60, 66)
    )
    turned = tmp_path / "phone.jpg"
    turned.write_bytes(with_orientation(cv2.imencode(".jpg", img)[1].tobytes(), 6))
    alpha = cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)
    alpha[..., 3] = 128
    cv2.imwrite(str(tmp_path / "alpha.png"), alpha)
    cv2.imwrite(str(tmp_path / "deep.png"), img.astype(np.uint16) * 257)
    cv2.imwrite(str(tmp_path / "grey.jpg"), cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))
    names = ["phone.jpg", "alpha.png", "deep.png", "grey.jpg"]
    argv = ["read", "--json", "--annotate", str(tmp_path / "drawn")]
    assert main([*argv, *(str(tmp_path / n) for n in names)]) == 0
    read = {
        Path(line["image"]).name: line["dice"]
        for line in map(json.loads, capsys.readouterr().out.splitlines())
    }
    for name in names:
        assert read_values(read[name]) == [3, 5], name

    def centre(d):
        x0, y0, x1, y1 = d["box"]
        return (x0 + x1) / 2, (y0 + y1) / 2

    # upright, the stored picture's point (x, y) is at (479 - y, x): boxes follow the turn
    upright = {d["value"]: centre(d) for d in read["phone.jpg"]}
    for d in read["alpha.png"]:
        x, y = centre(d)
        ux, uy = upright[d["value"]]
        assert abs(ux - (479 - y)) < 8 and abs(uy - x) < 8
    assert cv2.imread(str(tmp_path / "drawn" / "phone.png")).shape == (640, 480, 3)


def test_read_takes_a_folder_as_the_pictures_in_it(config, tmp_path, capsys):
    # `companion read ~/dice-photos`: every picture in it, by name; its notes and its
    # subfolders left out
    rng = np.random.default_rng(7)
    photos = tmp_path / "photos"
    (photos / "older").mkdir(parents=True)
    for name, values in (("b.PNG", [4]), ("a.jpg", [2, 6])):
        img, _ = scenes.scene(
            rng, 480, 640, faces=[render.Face("pips", v) for v in values], size_range=(60, 66)
        )
        cv2.imwrite(str(photos / name.lower()), img)
        (photos / name.lower()).rename(photos / name)
    cv2.imwrite(str(photos / "older" / "c.jpg"), img)
    (photos / "notes.txt").write_text("Tuesday's game")
    one = tmp_path / "one.jpg"
    cv2.imwrite(str(one), img)
    assert main(["read", "--json", str(photos), str(one)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["image"] for line in lines] == [
        str(photos / "a.jpg"),
        str(photos / "b.PNG"),
        str(one),
    ]
    assert [read_values(line["dice"]) for line in lines] == [[2, 6], [4], [2, 6]]


def test_read_names_a_file_it_cannot_read(config, tmp_path, capsys):
    (tmp_path / "notes.jpg").write_text("not a picture")
    (tmp_path / "frames").mkdir()
    (tmp_path / "frames" / "notes.txt").write_text("no picture here")
    names = [tmp_path / "notes.jpg", tmp_path / "gone.png", tmp_path / "frames"]
    assert main(["read", *map(str, names)]) == 2
    err = capsys.readouterr().err
    assert "notes.jpg: not an image OpenCV can read" in err and "gone.png: no such file" in err
    assert "frames: a folder with no pictures in it, or one this user may not read" in err


def test_read_names_phone_formats_opencv_cannot_read(config, tmp_path, capsys):
    # An iPhone saves HEIC by default: its file type box names the brands heic and mif1
    # (ISO/IEC 23008-12). An AVIF file names mif1 too, and is said to be AVIF.
    heic = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(200)
    (tmp_path / "IMG_0001.HEIC").write_bytes(heic)
    avif = b"\x00\x00\x00\x20ftypavif\x00\x00\x00\x00avifmif1miafMA1B" + bytes(200)
    (tmp_path / "shot.avif").write_bytes(avif)
    (tmp_path / "empty.jpg").write_bytes(b"")
    names = [tmp_path / n for n in ("IMG_0001.HEIC", "shot.avif", "empty.jpg")]
    assert main(["read", *map(str, names)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3
    assert "IMG_0001.HEIC: a HEIC photo, which OpenCV cannot read: save it as JPEG" in err[0]
    assert "Most Compatible" in err[0]
    assert "shot.avif: an AVIF picture, which OpenCV cannot read here" in err[1]
    assert "empty.jpg: an empty file (0 bytes): copy the picture again" in err[2]


def test_read_says_when_a_jpeg_is_cut_short_and_reads_what_it_holds(config, tmp_path, capsys):
    # OpenCV decodes a JPEG cut short (a copy broken off) with the missing rows grey, and
    # libjpeg's own warning does not say which file: the reader names it.
    img, _ = scenes.scene(
        np.random.default_rng(8), 480, 640, faces=[render.Face("pips", 3)], size_range=(60, 66)
    )
    whole = cv2.imencode(".jpg", img)[1].tobytes()
    # A thumbnail inside the picture's EXIF block ends with an end marker of its own, and a
    # phone's motion photo carries its video after the picture's: neither is the picture's.
    thumb = cv2.imencode(".jpg", cv2.resize(img, (160, 120)))[1].tobytes()
    app1 = b"\xff\xe1" + struct.pack(">H", 8 + len(thumb)) + b"Exif\x00\x00" + thumb
    with_thumb = whole[:2] + app1 + whole[2:]
    files = {
        "whole.jpg": whole,
        "motion.jpg": whole + b"\x00\x00\x00\x18ftypmp42" + bytes(range(256)) * 64,
        "cut.jpg": whole[: len(whole) * 3 // 4],
        "thumb-cut.jpg": with_thumb[: len(with_thumb) - len(whole) // 3],
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    assert main(["read", *(str(tmp_path / n) for n in files)]) == 0
    out, err = capsys.readouterr()
    assert "whole.jpg" not in err and "motion.jpg" not in err
    for name in ("cut.jpg", "thumb-cut.jpg"):
        assert f"{tmp_path / name}: the JPEG ends early (cut short while it was copied" in err
        assert f"{tmp_path / name}: " in out  # still read, as far as it goes


def test_read_never_draws_over_a_picture_and_names_a_bad_annotate_folder(config, tmp_path, capsys):
    # Photos from two phones are both IMG_0001; --annotate names the first one's own folder.
    rng = np.random.default_rng(5)
    photos = []
    for folder, value in (("a", 3), ("b", 5)):
        img, _ = scenes.scene(
            rng, 480, 640, faces=[render.Face("pips", value)], size_range=(60, 66)
        )
        (tmp_path / folder).mkdir()
        photos.append(tmp_path / folder / "IMG_0001.png")
        cv2.imwrite(str(photos[-1]), img)
    before = photos[0].read_bytes()
    assert main(["read", "--annotate", str(tmp_path / "a"), *map(str, photos)]) == 0
    assert photos[0].read_bytes() == before
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == [
        "IMG_0001-2.png",
        "IMG_0001-3.png",
        "IMG_0001.png",
    ]
    for drawn, photo in zip(("IMG_0001-2.png", "IMG_0001-3.png"), photos, strict=True):
        shown, original = cv2.imread(str(tmp_path / "a" / drawn)), cv2.imread(str(photo))
        assert shown.shape == original.shape and 0 < np.mean(shown != original) < 0.2
    capsys.readouterr()

    (tmp_path / "afile").write_text("")
    assert main(["read", "--annotate", str(tmp_path / "afile"), str(photos[0])]) == 2
    out, err = capsys.readouterr()
    assert out == "" and f"--annotate {tmp_path / 'afile'}: that is a file, not a folder" in err
    assert main(["read", "--annotate", str(tmp_path / "afile" / "sub"), str(photos[0])]) == 2
    assert "cannot make that folder (Not a directory)" in capsys.readouterr().err


def test_read_says_when_a_drawn_image_cannot_be_written(config, tmp_path, capsys):
    img, _ = scenes.scene(
        np.random.default_rng(5), 480, 640, faces=[render.Face("pips", 2)], size_range=(60, 66)
    )
    cv2.imwrite(str(tmp_path / "roll.png"), img)
    (tmp_path / "drawn").mkdir()
    (tmp_path / "drawn" / "roll.png").symlink_to("/dev/full")  # a disk with no room left
    assert main(["read", "--annotate", str(tmp_path / "drawn"), str(tmp_path / "roll.png")]) == 1
    err = capsys.readouterr().err
    assert f"could not write the drawn image {tmp_path / 'drawn' / 'roll.png'} (No space" in err
    assert "free some space or give --annotate another folder" in err


def test_read_turns_dice_as_a_straight_down_camera_sees_them_with_view_down(
    config, tmp_path, capsys
):
    # Golden 181 as a straight-down camera shows it below the frame's centre: far side down.
    photo = cv2.imread(str(Path(__file__).parents[1] / "data/dice/epanemu-test_dice_181_jpg.jpg"))
    frame = straight_down(photo, "below")
    cv2.imwrite(str(tmp_path / "below.png"), frame)
    assert main(["read", str(tmp_path / "below.png"), "--json", "--view", "down"]) == 0
    assert read_values(json.loads(capsys.readouterr().out)["dice"]) == [1, 4]
    assert main(["read", str(tmp_path / "below.png"), "--view", "sideways"]) == 2
    assert "unknown view 'sideways'" in capsys.readouterr().err


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
def device_for(folder: Path, tmp_path: Path, settler: Settler | None = None):
    hub = Hub(EventStore(tmp_path / "games.db"))
    session = hub.create("first-island", 2, {"variant": "easy"})
    watcher = RollWatcher(
        CameraSupervisor(lambda: ReplayCamera(folder, fps=0, loop=False)),
        DiceReader(),
        settler or Settler(),
        expected=lambda: 5,
    )
    return Device(hub, watcher), session


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
    session = hub.create("first-island", 1, {"variant": "easy"})
    device = Device(hub)
    session.act({"type": "dice_rolled", "values": ROLLS[0]})
    device.press()  # refused: the player has not marked yet; the reason is shown
    assert "button:" in device.message and session.seq == 1
    device.hold()
    assert session.state.roll is None and device.message == "button: undid the last action"


# -- teach ------------------------------------------------------------------------------
# Three symbols the classifier's embedding tells apart. (It barely tells a star from a cross;
# the model card lists this limit.)
SYMBOLS = ["star", "moon", "ring"]


def write_shows(folder, faces, count, seed=0, stride=100, size=(55, 70)) -> None:
    """``count`` rendered shows of each (face name, symbol) in ``faces``, each in a new place,
    as ``folder/<face name>/<k>.png``: face i's show k from seed ``seed + stride * i + k``."""
    for i, (name, symbol) in enumerate(faces):
        (folder / name).mkdir(parents=True)
        for k in range(count):
            rng = np.random.default_rng(seed + stride * i + k)
            face = render.Face("symbol", symbol)
            img, _ = scenes.scene(rng, 480, 640, faces=[face], size_range=size)
            cv2.imwrite(str(folder / name / f"{k}.png"), img)


def teach_from_shows(tmp_path, size) -> int:
    """``companion teach tribes`` from four rendered shows of each symbol, dice ``size`` px."""
    write_shows(tmp_path / "shows", [(n, n) for n in SYMBOLS], 4, size=size)
    return main(["teach", "tribes", "--shows", str(tmp_path / "shows")])


def read_throws(tmp_path, capsys) -> tuple[int, int, list]:
    """Six new throws of three taught dice, never shown while teaching: dice named right."""
    right = total = 0
    log = []
    for k in range(6):
        rng = np.random.default_rng(9000 + k)
        faces = [render.Face("symbol", SYMBOLS[(k + j) % 3]) for j in range(3)]
        img, dice = scenes.scene(rng, 480, 640, faces=faces, size_range=(55, 70))
        path = tmp_path / f"throw{k}.png"
        cv2.imwrite(str(path), img)
        main(["read", "--json", "--die", "tribes", str(path)])
        read = json.loads(capsys.readouterr().out)["dice"]
        truth = {
            (int((d.box[0] + d.box[2]) / 2), int((d.box[1] + d.box[3]) / 2)): d.face.value
            for d in dice
        }
        # with a taught die, a die is one of its faces or unsure, never a standard face
        assert all(r["value"] in (*SYMBOLS, None) for r in read), read
        for r in read:
            cx, cy = (r["box"][0] + r["box"][2]) / 2, (r["box"][1] + r["box"][3]) / 2
            near = min(truth, key=lambda c: np.hypot(c[0] - cx, c[1] - cy))
            right += r["value"] == truth[near]
            log.append((r["value"], truth[near], r["confidence"]))
        total += len(dice)
    return right, total, log


def test_teach_a_symbol_die_then_read_it(config, tmp_path, capsys):
    assert teach_from_shows(tmp_path, (55, 70)) == 0
    assert "taught die 'tribes'" in capsys.readouterr().out
    assert (tmp_path / "data" / "dice" / "tribes.json").exists()
    right, total, log = read_throws(tmp_path, capsys)
    assert right >= 0.85 * total, (right, total, log)


def test_a_show_it_cannot_use_is_named_and_the_taught_die_kept(config, tmp_path, capsys):
    # A show with no die in it, or an iPhone's HEIC photo among the shows: teaching stops
    # and names the file, rather than teaching the die without that show (or without that
    # face), and the die taught before is kept as it was. A file that is no picture at all
    # (notes) is passed over.
    assert teach_from_shows(tmp_path, (55, 70)) == 0
    capsys.readouterr()
    (tmp_path / "shows" / "star" / "notes.txt").write_text("the star face, shown four times")
    thumbs = tmp_path / "shows" / ".thumbnails"  # a viewer's, of the moon's first show
    thumbs.mkdir()
    moon = next((tmp_path / "shows" / "moon").iterdir())
    cv2.imwrite(str(thumbs / "moon.png"), cv2.resize(cv2.imread(str(moon)), (320, 240)))
    assert main(["teach", "tribes", "--shows", str(tmp_path / "shows")]) == 0
    assert ".thumbnails" not in capsys.readouterr().out  # not taught as a face
    saved = (tmp_path / "data" / "dice" / "tribes.json").read_bytes()
    blank = tmp_path / "shows" / "ring" / "9.png"  # the table before the die was put down
    cv2.imwrite(str(blank), np.full((480, 640, 3), 150, np.uint8))
    assert main(["teach", "tribes", "--shows", str(tmp_path / "shows")]) == 2
    assert f"{blank}: no die found in this show" in capsys.readouterr().err
    assert (tmp_path / "data" / "dice" / "tribes.json").read_bytes() == saved
    blank.unlink()
    heic = tmp_path / "shows" / "moon" / "IMG_0002.HEIC"
    heic.write_bytes(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(200))
    assert main(["teach", "tribes", "--shows", str(tmp_path / "shows")]) == 2
    err = capsys.readouterr().err
    assert f"{heic}: a HEIC photo, which OpenCV cannot read: save it as JPEG" in err
    assert f"or move it out of {heic.parent}" in err
    assert (tmp_path / "data" / "dice" / "tribes.json").read_bytes() == saved


def test_a_die_shown_close_to_the_camera_is_taught_whole(config, tmp_path, capsys):
    # Each face held up close (a die 170 to 200 px across a 640 px frame): the full pass
    # sees only parts of the symbol there; the coarse pass boxes the whole die.
    assert teach_from_shows(tmp_path, (170, 200)) == 0
    capsys.readouterr()
    right, total, log = read_throws(tmp_path, capsys)
    assert right >= 0.85 * total, (right, total, log)


def test_teach_from_the_camera_asks_for_each_face_in_turn(config, tmp_path, capsys, monkeypatch):
    # What the camera gives: after each Enter, the four frames it kept from before (here an
    # empty table: taken as the show, they would each be asked for again), then the face put
    # down in a new place. Five places for each face. Once, Enter is pressed before the die
    # is down (the first face's second place): that show is asked for again at once.
    camera = tmp_path / "camera"
    camera.mkdir()
    empty = np.full((480, 640, 3), 150, np.uint8)
    for i, name in enumerate(SYMBOLS):
        for k in range(5):
            for t in range(2 if (i, k) == (0, 1) else 1):
                for j in range(4):
                    cv2.imwrite(str(camera / f"{i}{k}{t}{j}.png"), empty)
                rng = np.random.default_rng(500 + 10 * i + k)
                img, _ = scenes.scene(
                    rng, 480, 640, faces=[render.Face("symbol", name)], size_range=(55, 70)
                )
                last = empty if (i, k, t) == (0, 1, 0) else img
                cv2.imwrite(str(camera / f"{i}{k}{t}9.png"), last)
    asked = []
    monkeypatch.setattr("builtins.input", lambda prompt: asked.append(prompt) or "")
    faces = ",".join(SYMBOLS)
    assert main(["teach", "tribes", "--faces", faces, "--camera", f"replay:{camera}@0"]) == 0
    expected = [
        f"Put the die with {n!r} up under the camera{'' if k == 1 else ', moved and turned'} "
        f"({k} of 5) and press Enter"
        for n in SYMBOLS
        for k in range(1, 6)
    ]
    again = (
        "no die found in this show: put one die in the middle of the picture; "
        f"show {SYMBOLS[0]!r} again (2 of 5) and press Enter"
    )
    assert asked == [*expected[:2], again, *expected[2:]]
    capsys.readouterr()
    rng = np.random.default_rng(777)  # a new throw of one die, never shown while teaching
    img, _ = scenes.scene(
        rng, 480, 640, faces=[render.Face("symbol", SYMBOLS[1])], size_range=(55, 70)
    )
    cv2.imwrite(str(tmp_path / "throw.png"), img)
    assert main(["read", "--json", "--die", "tribes", str(tmp_path / "throw.png")]) == 0
    assert [d["value"] for d in json.loads(capsys.readouterr().out)["dice"]] == [SYMBOLS[1]]


def test_teach_from_the_camera_without_a_keyboard_says_so_and_saves_nothing(
    config, tmp_path, capsys, monkeypatch
):
    # Run from a service or a pipe, stdin is closed: input() raised EOFError, a traceback.
    camera = tmp_path / "camera"
    camera.mkdir()
    img, _ = scenes.scene(
        np.random.default_rng(500), 480, 640, faces=[render.Face("symbol", SYMBOLS[0])]
    )
    cv2.imwrite(str(camera / "a.png"), img)
    answers = iter(["", ""])  # Enter twice, then the keyboard is gone

    def press(prompt):
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", press)
    argv = ["teach", "tribes", "--faces", ",".join(SYMBOLS), "--camera", f"replay:{camera}@0"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "teaching from the camera waits for Enter after each show, and no keyboard" in err
    assert err.rstrip().endswith("teach from pictures with --shows DIR; nothing was saved")
    assert not (tmp_path / "data" / "dice" / "tribes.json").exists()


def test_teach_refuses_two_faces_that_look_the_same(config, tmp_path, capsys):
    shows = tmp_path / "shows"
    rng = np.random.default_rng(3)
    img, _ = scenes.scene(rng, 480, 640, faces=[render.Face("symbol", "moon")], size_range=(55, 70))
    for name in ("fish", "wood"):  # the same picture shown for two faces
        (shows / name).mkdir(parents=True)
        cv2.imwrite(str(shows / name / "0.png"), img)
    assert main(["teach", "bad", "--shows", str(shows)]) == 2
    assert "faces 'fish' and 'wood' look the same to the reader" in capsys.readouterr().err
    assert not (tmp_path / "data" / "dice" / "bad.json").exists()


def test_teach_takes_a_star_and_a_triangle_shown_from_five_places(config, tmp_path, capsys):
    # Shows from five places spread each face's embeddings: the means of a star's and a
    # triangle's came within 0.03 of each other, which the rule before (means within 0.05)
    # refused as "look the same", though each show's nearest other show is its own face's.
    shows = tmp_path / "shows"
    write_shows(shows, [(n, n) for n in ("star", "triangle", "ring")], 5, seed=8000)
    assert main(["teach", "marks", "--shows", str(shows)]) == 0, capsys.readouterr().err
    die = json.loads((tmp_path / "data" / "dice" / "marks.json").read_text())
    star, triangle = (np.array(die["faces"][n]) for n in ("star", "triangle"))
    assert 1 - star @ triangle < 0.05  # the case the rule before refused


def test_teach_refuses_two_faces_shown_from_several_places_that_look_the_same(
    config, tmp_path, capsys
):
    # Each face shown in three places; "fish" and "wood" are one symbol under two names, so
    # their shows are as near each other's as their own.
    shows = tmp_path / "shows"
    faces = [("fish", "moon"), ("wood", "moon"), ("ore", "ring")]
    write_shows(shows, faces, 3, seed=7000, stride=10)
    assert main(["teach", "bad", "--shows", str(shows)]) == 2
    assert "faces 'fish' and 'wood' look the same to the reader" in capsys.readouterr().err
    assert not (tmp_path / "data" / "dice" / "bad.json").exists()


@pytest.mark.parametrize(
    "faces, said",
    [
        ("wood,wood,fish", "--faces names 'wood' more than once"),
        ("wood,,fish", "an empty face name in --faces 'wood,,fish'"),
        ("wood", "--faces names one face ('wood'): teach at least two"),
    ],
)
def test_teach_names_bad_faces_before_the_camera_opens(config, capsys, faces, said):
    # the camera named here does not exist: its error would show had it been opened
    assert main(["teach", "t", "--faces", faces, "--camera", "replay:/nonexistent@0"]) == 2
    err = capsys.readouterr().err
    assert said in err and "/nonexistent" not in err


def test_teach_says_what_to_do_with_no_camera_or_one_the_service_holds(config, capsys, monkeypatch):
    # The config names no camera ("none"), which was "unknown camera 'none'"
    assert main(["teach", "t", "--faces", "wood,fish"]) == 2
    assert "no camera: pass --camera (pi, usb:N" in capsys.readouterr().err

    # On the device the service holds the Pi camera. (No Pi camera here: its busy error, as
    # explain() words libcamera's, is raised in its place.)
    def busy(spec):
        raise explain(OSError(16, "Device or resource busy"), "the Pi camera")

    monkeypatch.setattr("companion.vision.camera.open_camera", busy)
    assert main(["teach", "t", "--faces", "wood,fish", "--camera", "pi"]) == 2
    err = capsys.readouterr().err
    assert "the Pi camera is busy: another program is using it" in err
    assert "sudo systemctl stop companion, teach, then sudo systemctl start companion" in err


def test_teach_refuses_a_bad_name_and_an_unknown_die(config, capsys):
    assert main(["teach", "Bad Name!", "--shows", "x"]) == 2
    assert "bad die name" in capsys.readouterr().err
    assert main(["read", "--die", "nosuch", "x.png"]) == 2
    assert "no taught die called 'nosuch'" in capsys.readouterr().err


def test_a_die_taught_with_another_model_must_be_taught_again(config, tmp_path, capsys):
    dice = tmp_path / "data" / "dice"
    dice.mkdir(parents=True)
    faces = {"fish": [1.0] + [0.0] * 63, "wood": [0.0, 1.0] + [0.0] * 62}
    saved = {"name": "old", "model": "0123456789abcdef", "max_distance": 0.25, "faces": faces}
    (dice / "old.json").write_text(json.dumps(saved))
    img, _ = scenes.scene(np.random.default_rng(4), 240, 320, count=1)
    cv2.imwrite(str(tmp_path / "one.png"), img)
    assert main(["read", "--die", "old", str(tmp_path / "one.png")]) == 2
    err = capsys.readouterr().err
    assert "taught with another version of the dice model" in err
    assert "companion teach old" in err
    # the same classifier, but its symbols embedded in colour (before they were compared by
    # shape alone): taught again too
    saved["model"] = DiceReader().faces_id
    (dice / "old.json").write_text(json.dumps(saved))
    assert main(["read", "--die", "old", str(tmp_path / "one.png")]) == 2
    assert "companion teach old" in capsys.readouterr().err
    # a die saved before the model was recorded is still used
    saved["model"] = None
    (dice / "old.json").write_text(json.dumps(saved))
    assert main(["read", "--die", "old", str(tmp_path / "one.png")]) == 0


def test_serve_with_a_taught_die_it_cannot_find_keeps_serving(tmp_path):
    # `[vision] die` names a die that is not there (or was taught with an earlier model):
    # the service must not exit (systemd would restart it in a loop, and the scoreboard
    # with it). It serves, rolls are entered by hand, and the log says what to do.
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "f0.png"), np.full((480, 640, 3), 128, np.uint8))
    settings = f'[camera]\nsource = "replay:{frames}@5"\n[vision]\ndie = "nosuch"\n'
    with serving(tmp_path, settings) as (_, server):  # up: it answered
        server.terminate()
        out, _ = server.communicate(timeout=20)
    assert "cannot read dice: no taught die called 'nosuch'" in out, out
    assert "companion teach nosuch" in out

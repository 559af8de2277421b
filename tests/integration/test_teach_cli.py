"""`companion teach`: a custom symbol die learned from shows of each face, then read."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from companion.cli.main import main
from companion.training import render, scenes
from companion.vision.camera import explain
from companion.vision.reader import DiceReader
from tests.helpers import serving

pytestmark = pytest.mark.integration


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
    saved["model"] = DiceReader().symbols_id
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

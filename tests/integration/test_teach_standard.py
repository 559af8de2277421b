"""`companion teach NAME --standard`: the table's own pip dice, taught from shows of each face
1 to 6, then read better than the general reader reads them; and `companion bench teach`."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from companion.cli.doctor import check_taught_die
from companion.cli.main import main
from companion.training import render, scenes
from companion.vision.reader import DiceReader
from companion.vision.teach import load_die
from tests.helpers import label, write_set

pytestmark = pytest.mark.integration


def logo_face(value: int, logo: str = "star") -> render.Face:
    """A face of a set whose 6 is a logo (as many branded dice are): pips, the 6 a star."""
    return render.Face("symbol", logo) if value == 6 else render.Face("pips", value)


def plain_face(value: int) -> render.Face:
    return render.Face("pips", value)


def write_shows(folder, face=logo_face, places=5, dice=4) -> None:
    """``folder/<1..6>/<k>.png``: the set's ``dice`` dice with that face up, in ``places``
    places."""
    for value in range(1, 7):
        (folder / str(value)).mkdir(parents=True)
        for k in range(places):
            rng = np.random.default_rng(100 * value + k)
            img, _ = scenes.scene(rng, 480, 640, faces=[face(value)] * dice, size_range=(55, 70))
            cv2.imwrite(str(folder / str(value) / f"{k}.png"), img)


def throws(count=12, seed=5000, face=logo_face):
    """New throws of five dice of the set, never shown: (picture, [(value, box)])."""
    for k in range(count):
        rng = np.random.default_rng(seed + k)
        values = [int(v) for v in rng.integers(1, 7, 5)]
        img, dice = scenes.scene(
            rng, 480, 640, faces=[face(v) for v in values], size_range=(55, 70)
        )
        yield img, [(v, d.box) for v, d in zip(values, dice, strict=True)]


def tally(reader: DiceReader) -> dict:
    """Each thrown die read right, unsure, wrong (while sure) or missed, by value."""
    out = {"right": 0, "unsure": 0, "wrong": 0, "missed": 0, "sixes_right": 0}
    for img, truth in throws():
        read = reader.read(img)
        for value, (x0, y0, x1, y1) in truth:
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            on = [d for d in read if d.box[0] <= cx <= d.box[2] and d.box[1] <= cy <= d.box[3]]
            if not on:
                out["missed"] += 1
            elif on[0].value is None:
                out["unsure"] += 1
            elif on[0].value == value:
                out["right"] += 1
                out["sixes_right"] += value == 6
            else:
                out["wrong"] += 1
    return out


def test_a_set_whose_6_is_a_logo_is_taught_and_its_6s_read(config, tmp_path, capsys):
    # The general reader reads the star as a 4 or a 1, surely: a wrong die nobody is asked
    # about. Shown with the 6 up five times, four dice each, the set is read right.
    write_shows(tmp_path / "shows")
    assert main(["teach", "logo", "--standard", "--shows", str(tmp_path / "shows")]) == 0
    said = capsys.readouterr().out
    assert "taught the set 'logo' from 120 dice" in said
    assert "read with it: companion read --die logo IMAGE" in said
    saved = json.loads((tmp_path / "data" / "dice" / "logo.json").read_text())
    assert saved["kind"] == "standard" and "dice-faces.onnx" in saved["heads"]

    before = tally(DiceReader())
    taught = load_die(tmp_path / "data", "logo")
    after = tally(DiceReader(custom=taught))
    assert before["wrong"] >= 3 and before["sixes_right"] == 0, before
    assert after["wrong"] == 0, after
    assert after["sixes_right"] >= 3 and after["right"] > before["right"], (before, after)

    # `companion read --die logo` reads with it: a throw with a 6 that only the taught set
    # reads as 6
    reader, plain = DiceReader(custom=taught), DiceReader()

    def sixes(by, img) -> int:
        return [d.value for d in by.read(img)].count(6)

    img = next(img for img, _ in throws(40) if sixes(reader, img) > sixes(plain, img))
    cv2.imwrite(str(tmp_path / "throw.png"), img)
    assert main(["read", "--json", "--die", "logo", str(tmp_path / "throw.png")]) == 0
    read = json.loads(capsys.readouterr().out)["dice"]
    assert [r["value"] for r in read] == [d.value for d in reader.read(img)]


def test_a_set_the_general_reader_reads_is_not_taught(config, tmp_path, capsys):
    write_shows(tmp_path / "shows", face=plain_face, places=3, dice=3)
    assert main(["teach", "plain", "--standard", "--shows", str(tmp_path / "shows")]) == 2
    err = capsys.readouterr().err
    assert "teaching would not read these dice better" in err
    assert "Nothing was saved" in err
    assert not (tmp_path / "data" / "dice" / "plain.json").exists()


def test_standard_shows_are_named_1_to_6_and_take_no_face_names(config, tmp_path, capsys):
    write_shows(tmp_path / "shows", places=2, dice=2)
    (tmp_path / "shows" / "6").rename(tmp_path / "shows" / "six")
    assert main(["teach", "logo", "--standard", "--shows", str(tmp_path / "shows")]) == 2
    assert "the shows name 'six': name the folders 1, 2, 3, 4, 5 and 6" in capsys.readouterr().err
    argv = ["teach", "logo", "--standard", "--faces", "a,b"]
    assert main(argv) == 2
    assert "--standard teaches the faces 1 to 6: leave out --faces" in capsys.readouterr().err
    assert not (tmp_path / "data" / "dice" / "logo.json").exists()


def test_a_set_taught_with_other_models_must_be_taught_again(config, tmp_path, capsys):
    write_shows(tmp_path / "shows", places=3)
    assert main(["teach", "logo", "--standard", "--shows", str(tmp_path / "shows")]) == 0
    path = tmp_path / "data" / "dice" / "logo.json"
    saved = json.loads(path.read_text())
    saved["model"] = "0123456789abcdef"
    path.write_text(json.dumps(saved))
    img, _ = next(throws(count=1))
    cv2.imwrite(str(tmp_path / "one.png"), img)
    capsys.readouterr()
    assert main(["read", "--die", "logo", str(tmp_path / "one.png")]) == 2
    err = capsys.readouterr().err
    assert "taught with another version of the dice model" in err
    assert "companion teach logo --standard" in err
    stale = check_taught_die("logo", tmp_path / "data")  # and `companion doctor` says so
    assert stale.level == "FAIL" and "companion teach logo --standard" in stale.detail
    saved["model"] = DiceReader().taught_id
    path.write_text(json.dumps(saved))
    assert check_taught_die("logo", tmp_path / "data").detail == (
        "'logo': a taught set of pip dice, for these models"
    )


def test_bench_teach_reads_a_source_s_held_out_photos_before_and_after_teaching(tmp_path, capsys):
    # A labelled source no shipped model learned from: its train photos are the shows, its
    # held-out throws are read before and after.
    rows, pictures = [], {}
    for value in range(1, 7):
        for k in range(3):
            rng = np.random.default_rng(100 * value + k)
            values = [value] * 3 + [1 + (value + k) % 6]
            faces = [logo_face(v) for v in values]
            img, dice = scenes.scene(rng, 480, 640, faces=faces, size_range=(55, 70))
            pictures[name := f"show{value}{k}.png"] = img
            rows += [label(name, v, d.box, "train") for v, d in zip(values, dice, strict=True)]
    for k, (img, truth) in enumerate(throws()):
        pictures[name := f"throw{k}.png"] = img
        rows += [label(name, v, box, "heldout") for v, box in truth]
    folder = tmp_path / "photos" / "logo"
    write_set(folder, rows)
    for name, img in pictures.items():
        cv2.imwrite(str(folder / name), img)
    argv = ["bench", "teach", "--data", str(tmp_path / "photos"), "--loso", str(tmp_path)]
    assert main([*argv, "--per-face", "8"]) == 0
    found = json.loads(capsys.readouterr().out)["sources"]["logo"]
    assert found["read_by"] == "shipped reader"
    assert found["dice_shown"] >= 6 * 8
    before, after = found["before"], found["after"]
    assert before["dice"] == after["dice"] == 60
    assert after["wrong_while_sure"] < before["wrong_while_sure"]
    assert after["dice_read_right"] > before["dice_read_right"]
    shows = found["shows_cross_validated"]["dice-faces.onnx"]
    assert shows["taught"]["right"] > shows["untaught"]["right"]


def test_teach_a_set_from_the_camera_asks_for_each_face_with_every_die(
    config, tmp_path, capsys, monkeypatch
):
    # After each Enter the camera gives the four frames it kept from before (the table as it
    # was), then the set's dice with the face asked for up, in a new place.
    camera = tmp_path / "camera"
    camera.mkdir()
    write_shows(tmp_path / "shows")
    empty = np.full((480, 640, 3), 150, np.uint8)
    for value in range(1, 7):
        for k in range(5):
            for j in range(4):
                cv2.imwrite(str(camera / f"{value}{k}{j}.png"), empty)
            show = cv2.imread(str(tmp_path / "shows" / str(value) / f"{k}.png"))
            cv2.imwrite(str(camera / f"{value}{k}9.png"), show)
    asked = []
    monkeypatch.setattr("builtins.input", lambda prompt: asked.append(prompt) or "")
    argv = ["teach", "logo", "--standard", "--camera", f"replay:{camera}@0"]
    assert main(argv) == 0
    assert asked[:2] == [
        "Put the set's dice, all with '1' up under the camera (1 of 5) and press Enter",
        "Put the set's dice, all with '1' up under the camera, moved and turned (2 of 5) and "
        "press Enter",
    ]
    assert len(asked) == 30 and asked[-1].startswith("Put the set's dice, all with '6' up")
    assert "taught the set 'logo' from 120 dice" in capsys.readouterr().out
    # the same shows as from the folder, seen as the camera sees them: the same set
    from_camera = json.loads((tmp_path / "data" / "dice" / "logo.json").read_text())
    folder = ["--shows", str(tmp_path / "shows"), "--view", "down"]
    assert main(["teach", "logo", "--standard", *folder]) == 0
    from_folder = json.loads((tmp_path / "data" / "dice" / "logo.json").read_text())
    assert from_camera == from_folder

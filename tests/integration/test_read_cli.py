"""`companion read`: still pictures in, each die's value, box and confidence out."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli.main import main
from companion.training import render, scenes
from companion.vision.reader import DOT_VALUE
from tests.helpers import read_values, straight_down

pytestmark = pytest.mark.integration


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

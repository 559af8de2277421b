"""How a taught die (``companion teach``) names a face from the classifier's embedding."""

from __future__ import annotations

import json

import numpy as np
import pytest

from companion.errors import StorageError, VisionError
from companion.vision.custom import CustomDice, one_size
from companion.vision.reader import DieReading


def unit(*xs: float) -> np.ndarray:
    v = np.array(xs, np.float32)
    return v / np.linalg.norm(v)


def die(**shows: list[np.ndarray]) -> CustomDice:
    faces = {}
    for name, embs in shows.items():
        mean = np.mean(embs, axis=0)
        faces[name] = mean / np.linalg.norm(mean)
    return CustomDice("test", faces, 0.25, shows={k: np.array(v) for k, v in shows.items()})


def test_a_face_is_known_by_its_nearest_show_not_by_the_mean_of_its_shows():
    # face "a" looks different from two sides; a new throw like one side is "a", although
    # it is far from the mean of a's two shows
    d = die(a=[unit(1, 0, 0), unit(0, 1, 0)], b=[unit(0, 0, 1)])
    throw = unit(1, 0.05, 0.02)
    assert 1 - throw @ d.faces["a"] > 0.25  # the mean alone would not accept it
    name, confidence = d.match(throw)
    assert name == "a" and 0 < confidence <= 1


def test_a_throw_half_way_between_two_faces_is_unsure():
    d = die(a=[unit(1, 0, 0)], b=[unit(0.8, 0.6, 0)])
    assert d.match(unit(1, 0, 0))[0] == "a"
    assert d.match(unit(0.8, 0.6, 0))[0] == "b"
    assert d.match(unit(0.95, 0.3, 0)) is None  # nearly as near to b as to a
    assert d.near(unit(0.95, 0.3, 0))  # but one of these dice: the reader says unsure


def test_a_thing_far_from_every_face_is_not_one_of_the_dice():
    d = die(a=[unit(1, 0, 0)], b=[unit(0, 1, 0)])
    assert d.match(unit(0, 0, 1)) is None
    assert not d.near(unit(0, 0, 1))  # the reader leaves it out, as a coin on the table
    assert d.near(unit(1, 0.3, 0)) and not d.near(unit(1, 0.5, 1))  # radius 0.25


def reading(side: float, value: str | None, x: float = 0) -> DieReading:
    return DieReading((x, 0, x + side, side), value, 0.9, value or "unsure")


def test_taught_dice_are_one_size_so_a_much_smaller_box_is_left_out():
    dice = [reading(60, "a"), reading(64, "b", 100), reading(28, None, 200), reading(31, "a", 300)]
    assert [d.box[0] for d in one_size(dice)] == [0, 100, 300]  # 28 < half of 60; 31 is not
    # one named die gives no size to compare with
    assert one_size([reading(60, "a"), reading(20, None, 100)]) == [
        reading(60, "a"),
        reading(20, None, 100),
    ]


def test_a_taught_die_is_saved_and_loaded_with_every_show(tmp_path):
    d = die(a=[unit(1, 0, 0), unit(0, 1, 0)], b=[unit(0, 0, 1)])
    d.save(tmp_path / "test.json")
    back = CustomDice.load(tmp_path / "test.json")
    assert back.shows["a"].shape == (2, 3)
    assert back.match(unit(0.05, 1, 0))[0] == "a"


def test_a_die_saved_before_shows_were_kept_still_loads(tmp_path):
    # Such a file holds only each face's mean; that mean is its one show.
    (tmp_path / "old.json").write_text(
        json.dumps({"name": "old", "faces": {"a": [1, 0, 0], "b": [0, 1, 0]}})
    )
    old = CustomDice.load(tmp_path / "old.json")
    assert old.match(unit(1, 0.1, 0))[0] == "a" and old.match(unit(0, 0, 1)) is None


def test_a_die_that_cannot_be_saved_leaves_the_one_taught_before_whole(tmp_path):
    path = tmp_path / "dice" / "test.json"
    die(a=[unit(1, 0, 0)], b=[unit(0, 1, 0)]).save(path)
    before = path.read_text()
    (path.parent / ".test.json.part").symlink_to("/dev/full")  # a disk with no room left
    with pytest.raises(StorageError) as info:
        die(a=[unit(0, 0, 1)], b=[unit(0, 1, 0)]).save(path)
    assert info.value.message.startswith(f"could not save the taught die to {path} (No space")
    assert path.read_text() == before and sorted(p.name for p in path.parent.iterdir()) == [
        "test.json"
    ]
    (tmp_path / "taken").write_text("")  # a file where the dice folder should be
    with pytest.raises(StorageError, match="then teach it again"):
        die(a=[unit(1, 0, 0)], b=[unit(0, 1, 0)]).save(tmp_path / "taken" / "test.json")


def test_a_taught_die_file_of_the_wrong_shape_is_named(tmp_path):
    (tmp_path / "odd.json").write_text(json.dumps({"name": "odd", "faces": ["a", "b"]}))
    with pytest.raises(VisionError) as info:
        CustomDice.load(tmp_path / "odd.json")
    said = info.value.message
    assert said.startswith(f"cannot read the taught die {tmp_path / 'odd.json'}: ")
    assert said.endswith("Teach it again with `companion teach NAME`.")

"""`companion bench loso`: each photo source read by a classifier that never learned from it."""

from __future__ import annotations

import itertools
import json
import shutil

import numpy as np
import pytest

from companion.cli.main import main
from companion.training.evaluate import evaluate
from companion.training.loso import Tally, body, loso_models
from companion.vision.reader import DiceReader, DieReading, model_dir
from tests.helpers import golden_set

pytestmark = pytest.mark.integration


def held_out_classifier(folder, trained_on, model="dice-faces.onnx", looks="upright"):
    """A folder as `make loso` leaves one: a classifier (here a shipped one) and its card."""
    folder.mkdir(parents=True)
    shutil.copy(model_dir() / model, folder / "dice-faces.onnx")
    card = json.loads((model_dir() / "dice.json").read_text())
    own = {"classes": card["classes"], "looks": looks, "trained_on": trained_on}
    (folder / "dice.json").write_text(json.dumps(own))


def run_bench(capsys, data, loso) -> dict:
    assert main(["bench", "loso", "--data", str(data), "--loso", str(loso)]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_source_is_read_whole_by_its_held_out_classifier_and_by_the_shipped_reader(
    tmp_path, capsys
):
    data, loso = tmp_path / "photos", tmp_path / "loso"
    golden_set(data)
    held_out_classifier(loso / "golden", ["epanemu", "matteop65"])
    found = run_bench(capsys, data, loso)["sources"]["golden"]

    held = found["held_out_classifier"]
    outcomes = ("dice_read_right", "unsure", "wrong_while_sure", "missed")
    assert sum(held[k] for k in outcomes) == pytest.approx(1, abs=1e-3)
    assert held["trained_on"] == ["epanemu", "matteop65"]
    assert held["detector_learned_from_it"] is False
    bodies = held["by_body"]
    assert sum(b["dice"] for b in bodies.values()) == held["dice"]
    assert set(bodies) <= {"light", "dark"}
    # a higher min_confidence makes no more dice right and no more wrong while sure
    steps = list(held["by_threshold"].values())
    for low, high in itertools.pairwise(steps):
        assert high["dice_read_right"] <= low["dice_read_right"]
        assert high["wrong_while_sure"] <= low["wrong_while_sure"]
    card = json.loads((model_dir() / "dice.json").read_text())
    assert float(next(iter(held["by_threshold"]))) == card["min_confidence"]  # none lower
    assert steps[0]["dice_read_right"] == held["dice_read_right"]

    # no shipped model learned from this source: the shipped reader reads it as it is, and
    # its figures are those `bench vision` gives on the same photos
    shipped = found["shipped_reader"]
    same = evaluate(DiceReader(model_dir()), data, "heldout")["all"]
    assert shipped["dice_read_right"] == same["dice_read_right"]
    assert shipped["photos_entirely_right"] == same["photos_entirely_right"]
    assert shipped["dice"] == same["dice"]


def test_with_its_opinion_a_source_is_read_by_the_held_out_cascade_too(tmp_path, capsys):
    data, loso = tmp_path / "photos", tmp_path / "loso"
    golden_set(data)
    held_out_classifier(loso / "golden", ["epanemu"])
    held_out_classifier(loso / "golden" / "opinion", ["matteop65"], "dice-opinion.onnx", "turns")
    out = run_bench(capsys, data, loso)
    found = out["sources"]["golden"]
    alone, reader = found["held_out_classifier"], found["held_out_reader"]
    assert alone["trained_on"] == ["epanemu"]
    assert reader["trained_on"] == ["epanemu", "matteop65"]  # what either learned from
    assert reader["dice"] == alone["dice"]
    # the targets are judged on the cascade, the reader as the device has it
    for key, worst in out["worst"].items():
        assert worst["value"] == reader[key]

    # the cascade is the shipped reader's shape: the opinion asked about the unsure dice and
    # as the veto, at the shipped veto's confidence
    shipped = json.loads((model_dir() / "dice.json").read_text())
    models = loso_models(model_dir(), loso / "golden", tmp_path / "cascade", cascade=True)
    card = json.loads((models / "dice.json").read_text())
    assert card["second_opinion"] == [{"file": "dice-opinion.onnx", "looks": "turns"}]
    assert card["veto"] == {
        "file": "dice-opinion.onnx", "looks": "turns",
        "confidence": shipped["veto"]["confidence"],
    }  # fmt: skip
    assert (models / "dice-opinion.onnx").read_bytes() == (
        model_dir() / "dice-opinion.onnx"
    ).read_bytes()
    # an opinion that learned from the source is refused like a classifier that did
    shutil.rmtree(loso / "golden" / "opinion")
    held_out_classifier(loso / "golden" / "opinion", ["golden"], "dice-opinion.onnx", "turns")
    assert main(["bench", "loso", "--data", str(data), "--loso", str(loso)]) != 0
    assert "learned from golden itself" in capsys.readouterr().err


def test_a_classifier_that_learned_from_its_source_is_refused(tmp_path, capsys):
    data, loso = tmp_path / "photos", tmp_path / "loso"
    golden_set(data)
    held_out_classifier(loso / "golden", ["epanemu", "golden"])
    assert main(["bench", "loso", "--data", str(data), "--loso", str(loso)]) != 0
    err = capsys.readouterr().err
    assert "learned from golden itself" in err and "make loso" in err


def test_a_source_without_its_classifier_says_what_to_run(tmp_path, capsys):
    data, loso = tmp_path / "photos", tmp_path / "loso"
    golden_set(data)
    loso.mkdir()
    found = run_bench(capsys, data, loso)["sources"]["golden"]
    assert "make loso" in found["not_measured"]
    assert main(["bench", "loso", "--data", str(data), "--loso", str(tmp_path / "none")]) != 0
    assert "run `make loso` first" in capsys.readouterr().err


def die(box, value, confidence):
    return DieReading(box, value, confidence, "unsure" if value is None else str(value))


def test_each_labelled_die_is_right_unsure_wrong_or_missed_and_extra_boxes_apart():
    white = np.full((100, 400, 3), 230, np.uint8)
    white[:, 300:] = 20  # the last die lies on a dark patch: its body is dark
    truth = [(1, (0, 0, 50, 50)), (2, (100, 0, 150, 50)), (3, (200, 0, 250, 50)),
             (4, (300, 0, 350, 50))]  # fmt: skip
    found = [
        die((0, 0, 50, 50), 1, 0.9),  # right
        die((100, 0, 150, 50), 5, 0.8),  # wrong while sure
        die((200, 0, 250, 50), None, 0.5),  # unsure
        die((0, 60, 40, 100), 6, 0.99),  # on no labelled die
    ]  # the 4 is missed
    again = [die((0, 0, 50, 50), 1, 0.96)]
    tally = Tally()
    tally.add(white, "table", found, truth)
    tally.add(white, "table", again, [(1, (0, 0, 50, 50))])
    out = tally.report()
    assert (out["dice"], out["photos"], out["extra_boxes"]) == (5, 2, 1)
    assert out["dice_read_right"] == 0.4 and out["wrong_while_sure"] == 0.2
    assert out["unsure"] == 0.2 and out["missed"] == 0.2
    assert out["photos_entirely_right"] == 0.5
    assert out["by_body"]["dark"] == {
        "dice": 1, "dice_read_right": 0.0, "unsure": 0.0, "wrong_while_sure": 0.0, "missed": 1.0
    }  # fmt: skip
    # at 0.85 the wrong 5 (read at 0.8) would be unsure; at 0.95 the first photo's 1 too
    assert out["by_threshold"]["0.85"] == {
        "dice_read_right": 0.4, "wrong_while_sure": 0.0, "photos_entirely_right": 0.5
    }  # fmt: skip
    assert out["by_threshold"]["0.95"]["dice_read_right"] == 0.2
    assert out["by_threshold"]["0.95"]["photos_entirely_right"] == 0.5


def test_a_die_s_body_is_light_or_dark_by_its_middle():
    photo = np.full((60, 120, 3), 40, np.uint8)
    photo[:, :60] = 220
    photo[25:35, 25:35] = 0  # a pip in the light die's middle darkens under half of it
    assert body(photo, (0, 0, 60, 60), "table") == "light"
    assert body(photo, (60, 0, 120, 60), "table") == "dark"
    assert body(photo, (60, 0, 120, 60), "matteop65") == "light"  # its boxes are pips

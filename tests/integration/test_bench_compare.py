"""`companion bench vision --against`: two models folders compared photo by photo on the dev
split, never on the held-out one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli.bench import vision as bench_vision_module
from companion.cli.main import main
from companion.training.evaluate import evaluate
from companion.vision.reader import model_dir
from tests.helpers import (
    golden_dev_set,
    golden_set,
    models_with_card,
)

pytestmark = pytest.mark.integration


def test_two_models_folders_are_compared_photo_by_photo(tmp_path, capsys):
    cases = golden_dev_set(tmp_path / "data")
    # the shipped models, but sure of nothing under 0.99
    unsure = models_with_card(tmp_path, min_confidence=0.99)

    def compare(models: Path, against: Path) -> dict:
        argv = ["bench", "vision", "--data", str(tmp_path / "data"), "--split", "dev"]
        assert main([*argv, "--models", str(models), "--against", str(against)]) == 0
        return json.loads(capsys.readouterr().out)

    worse = compare(unsure, model_dir())
    photos = worse["photos_entirely_right"]
    # every golden photo here is read right by the shipped models, and none by the candidate
    # that is sure of nothing (the golden dice read at about 0.9)
    assert (photos["gained"], photos["lost"], photos["net"]) == (0, len(cases), -len(cases))
    assert photos["lost_photos"] == sorted(f"golden/{f}" for f in photos_named(tmp_path / "data"))
    assert photos["two_sigma"] == round(2 * len(cases) ** 0.5, 2)
    assert photos["past_two_sigma"] is False
    assert worse["all"]["photos_entirely_right"] == 0.0
    assert worse["against_all"]["photos_entirely_right"] == 1.0
    assert worse["sets"]["golden"]["against"]["photos"] == len(cases)

    better = compare(model_dir(), unsure)["photos_entirely_right"]
    assert (better["gained"], better["lost"]) == (len(cases), 0)
    assert better["past_two_sigma"] is (len(cases) > 2 * len(cases) ** 0.5)

    same = compare(model_dir(), model_dir())["photos_entirely_right"]
    assert (same["gained"], same["lost"], same["past_two_sigma"]) == (0, 0, False)


def test_two_models_folders_are_compared_as_the_pi_cameras_streams_read_the_photos(
    tmp_path, capsys, monkeypatch
):
    """``--pi-streams --against``: both folders read the photos found at half size, each way
    the faces are read, with the figures ``--pi-streams`` alone gives."""
    cases = golden_dev_set(tmp_path / "data")
    unsure = models_with_card(tmp_path, min_confidence=0.99)
    argv = ["bench", "vision", "--data", str(tmp_path / "data"), "--split", "dev"]
    assert main([*argv, "--pi-streams", "--models", str(unsure)]) == 0
    alone = json.loads(capsys.readouterr().out)
    read_as = []

    def spy(reader, data, split, **kw):
        read_as.append(kw.get("streams"))
        return evaluate(reader, data, split, **kw)

    monkeypatch.setattr(bench_vision_module, "evaluate", spy)
    argv += ["--pi-streams", "--models", str(unsure), "--against", str(model_dir())]
    assert main(argv) == 0
    compared = json.loads(capsys.readouterr().out)
    assert read_as == [(0.5, False)] * 2 + [(0.5, True)] * 2
    assert compared["analysis_scale"] == 0.5
    for way in ("faces_from_the_analysis_picture", "faces_from_the_photo"):
        assert compared[way]["all"] == alone[way]["all"]
        assert compared[way]["sets"]["golden"]["models"]["photos"] == len(cases)
        photos = compared[way]["photos_entirely_right"]
        assert photos["gained"] == 0 and photos["lost"] == len(photos["lost_photos"])


def photos_named(folder: Path) -> list[str]:
    return sorted(p.name for p in (folder / "golden").glob("*.jpg"))


def test_models_are_not_compared_on_the_held_out_split(tmp_path, capsys):
    golden_set(tmp_path)
    argv = ["bench", "vision", "--data", str(tmp_path), "--against", str(model_dir())]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "--against compares two models folders" in err and "--split dev" in err

"""`companion bench settle`: each labelled photo of a whole table made a live rest, judged by
what the game would be given."""

from __future__ import annotations

import json

import pytest

from companion.cli.main import main
from tests.helpers import (
    NOT_RIGHT,
    golden_set,
    label,
    write_set,
)

pytestmark = pytest.mark.integration


def test_a_rest_is_judged_by_what_the_game_would_be_given():
    from companion.cli.bench.settle import judge
    from companion.vision.settle import Settled

    truth = [(3, (0, 0, 40, 40)), (5, (100, 0, 140, 40))]
    boxes = ((2, 1, 41, 40), (101, 0, 139, 42))

    def rest(kind, values, box=boxes):
        return judge([(4, Settled(kind, values, 0.9, box))], truth)

    assert rest("roll", (3, 5)).outcome == "right"
    assert rest("roll", (3, 5)).dice == ("right", "right")
    assert rest("roll", (3, 5)).frame == 4
    assert (rest("roll", (3, 6)).outcome, rest("roll", (3, 6)).dice) == (
        "wrong",
        ("right", "wrong"),
    )
    # the right values on the wrong things: a box on the table and a die missed
    assert rest("roll", (3, 5), ((2, 1, 41, 40), (300, 300, 340, 340))).outcome == "wrong"
    assert rest("unsure", (3, None)).outcome == "confirm"
    assert rest("unsure", (3, None)).dice == ("right", "other")
    assert rest("wrong_count", (3,), boxes[:1]).outcome == "confirm"
    assert judge([], truth).outcome == "none" and judge([], truth).frame is None
    twice = judge([(4, Settled("roll", (3, 5), 0.9, boxes))] * 2, truth)
    assert twice.repeated and not rest("roll", (3, 5)).repeated


def test_the_settle_benchmark_makes_each_photo_a_live_rest(tmp_path, capsys):
    cases = golden_set(tmp_path)
    assert main(["bench", "settle", "--data", str(tmp_path), "--frames", "8"]) == 0
    out = json.loads(capsys.readouterr().out)
    golden = out["sets"]["golden"]
    assert (golden["photos"], golden["dice"]) == (
        len(cases),
        sum(len(c["values"]) for c in cases.values()),
    )
    assert sum(golden[o] for o in ("right", "wrong", "confirm", "none")) == len(cases)
    # the reader reads most golden photos right with confidence, so most rests give the
    # right roll, after the Settler's five still frames
    assert golden["right"] >= len(cases) - len(NOT_RIGHT) - 1
    assert golden["median_still_frames_to_final_event"] == 5
    assert out["still_frames_a_rest"] == 8 and out["all"] == golden


def test_the_settle_benchmark_says_what_is_wrong_with_its_input(tmp_path, capsys):
    golden_set(tmp_path)
    assert main(["bench", "settle", "--data", str(tmp_path), "--frames", "0"]) == 2
    assert "--frames 0: a rest needs at least one still frame" in capsys.readouterr().err
    crops = tmp_path / "crops"
    write_set(crops / "tomitomi3", [label("a.jpg", 1, (0, 0, 128, 128), "heldout", side=128)])
    assert main(["bench", "settle", "--data", str(crops)]) == 2
    assert "no photos of whole tables in the heldout split" in capsys.readouterr().err

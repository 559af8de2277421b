"""`companion bench vision`: the dev split it keeps aside, and the figures it reports."""

from __future__ import annotations

import json
import shutil
import tracemalloc
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli.main import main
from companion.training import speed as speed_module
from companion.training.calibrate import CONFIDENCES, DETECTS
from companion.training.evaluate import (
    crowd_band,
    despeckle,
    evaluate,
    is_dev,
    load_split,
    source_photo,
    wrong_share,
)
from companion.training.speed import crowd_frames, speed, speed_by_dice
from companion.vision.reader import DiceReader, DieReading, model_dir
from tests.helpers import (
    NOT_RIGHT,
    golden_dev_set,
    golden_set,
    label,
    write_set,
)

pytestmark = pytest.mark.integration


def test_salt_and_pepper_noise_is_cleaned_and_a_clean_photo_left_as_it_is():
    photo = cv2.imread(str(Path(__file__).parents[1] / "data/dice/matteop65-valid_valid_10.jpg"))
    assert despeckle(photo) is photo  # a camera's photo: no specks to take out
    rng = np.random.default_rng(0)
    noisy = photo.copy()
    where = rng.random(photo.shape[:2]) < 0.01  # an exporter's salt and pepper
    noisy[where] = np.where(rng.random((int(where.sum()), 1)) < 0.5, 0, 255)
    cleaned = despeckle(noisy)

    def off(img):
        return np.abs(img.astype(int) - photo.astype(int)).mean()

    assert off(cleaned) < off(noisy) / 4
    grey = cv2.cvtColor(noisy, cv2.COLOR_BGR2GRAY)
    assert despeckle(grey) is grey  # a grey picture is not one of those photos


@pytest.mark.parametrize(
    "name, source",
    [
        # a Roboflow export: augmented copies of one photo
        ("train_dice_101_jpg.rf.9e69503db4a1230f791c4004b2080121.jpg", "train_dice_101_jpg"),
        # crops of one drone frame, in several versions of a data set
        ("train_v2_DJI_20241005234306_0227_D_detection_1.jpg", "DJI_20241005234306_0227"),
        ("train_v5_DJI_20241005234306_0227_D_detection_2.jpg", "DJI_20241005234306_0227"),
        # consecutive frames of one filmed scene
        ("train_two_31.jpg", "train_two_3x"),
        ("train_two_39.jpg", "train_two_3x"),
        ("v1_00100.png", "v1_10x"),
        ("table.jpg", "table"),
    ],
)
def test_near_copies_share_a_source_photo(name, source):
    assert source_photo(name) == source


def test_the_dev_tenth_never_splits_the_copies_of_one_photo():
    copies = [
        [f"train_dice_{n}_jpg.rf.{k:032x}.jpg" for k in range(n * 3, n * 3 + 3)]
        for n in range(1000)
    ]
    for group in copies:
        assert len({is_dev(name) for name in group}) == 1, group
    share = sum(is_dev(group[0]) for group in copies) / len(copies)
    assert 0.07 <= share <= 0.13, share


def test_the_dev_split_is_train_photos_only(tmp_path):
    rows = []
    for n in range(200):
        for k in range(3):
            name = f"train_dice_{n}_jpg.rf.{n}{k}.jpg"
            rows.append(label(name, 1 + n % 6, (10, 10, 40, 40), "train"))
        rows.append(label(f"test_dice_{n}_jpg.rf.0.jpg", 2, (10, 10, 40, 40), "heldout"))
    write_set(tmp_path / "dice", rows)
    dev = load_split(tmp_path, "dev")["dice"]
    held = load_split(tmp_path, "heldout")["dice"]
    assert dev and not set(dev) & set(held)
    assert all(name.startswith("train_") for name in dev)
    sources = {source_photo(name) for name in dev}
    assert len(dev) == 3 * len(sources)  # every copy of a dev photo, none trained on


def test_the_benchmark_reports_the_golden_photos_as_the_reader_reads_them(tmp_path, capsys):
    cases = golden_set(tmp_path)
    assert main(["bench", "vision", "--data", str(tmp_path)]) == 0
    out = json.loads(capsys.readouterr().out)
    golden = out["sets"]["golden"]
    assert (golden["photos"], golden["dice"]) == (
        len(cases),
        sum(len(c["values"]) for c in cases.values()),
    )
    # the photos tests/integration/test_reader.py knows are misread are the ones not right
    assert golden["photos_entirely_right"] == round(1 - len(NOT_RIGHT) / len(cases), 4)
    assert out["speed"]["frames"] == 3  # the three 640x640 golden photos
    assert out["speed"]["read_ms_median"] > out["speed"]["jpeg_decode_ms_median"] > 0
    card = json.loads((model_dir() / "dice.json").read_text())
    assert out["thresholds"] == {
        "detect": card["detect_threshold"],
        "min_confidence": card["min_confidence"],
        "faint": card.get("faint_threshold"),
        "second_look": card.get("second_look", []),
    }


def test_speed_times_every_frame_once_a_pass_after_one_warm_read_each(tmp_path, monkeypatch):
    """The speed figure is the median over several timed passes (a shared machine's speed
    drifts over seconds), each frame read once first to warm the reader. A clock that moves
    1 ms a look at it, and reads that take 10, 20 and 30 ms more in the three passes, give
    known medians."""
    golden_set(tmp_path)
    reader = DiceReader(threads=1)
    now = [0.0]

    def clock():
        now[0] += 0.001
        return now[0]

    seen = []
    read = reader.read

    def counted(img, detail=None):
        seen.append(img.tobytes())
        timed = len(seen) - 3  # the first three reads warm the reader
        now[0] += 0.01 * (timed // 3 + 1) if timed >= 0 else 0.0
        return read(img, detail)

    reader.read = counted
    monkeypatch.setattr(speed_module.time, "perf_counter", clock)
    out = speed(reader, tmp_path, passes=3)
    assert out["frames"] == 3  # the three 640x640 golden photos
    assert len(seen) == 3 * (1 + 3) and len(set(seen)) == 3
    assert seen[3:] == seen[:3] * 3  # each pass reads every frame, in the same order
    assert out["passes"] == 3
    assert out["read_ms_median_by_pass"] == [11.0, 21.0, 31.0]
    assert out["read_ms_median"] == 21.0  # over all nine timed reads, not one pass's
    assert out["jpeg_decode_ms_median"] == 1.0
    assert out["read_to_decode_ratio"] == 21.0


def test_frames_by_dice_are_the_middle_640_px_of_table_photos_counting_the_dice_inside(tmp_path):
    golden_set(tmp_path)
    sets = load_split(tmp_path, "heldout")
    frames = crowd_frames(tmp_path, sets, 2, 2)
    # every golden photo holds two dice: the 640x640 ones as they are, the 640x480 ones
    # scaled to 853x640 and cut to their middle, where both of their dice lie
    assert len(frames) == 6 and all(f.shape == (640, 640, 3) for f in frames)
    golden = cv2.imread(str(tmp_path / "golden" / "epanemu-test_dice_181_jpg.jpg"))
    assert any(np.array_equal(f, golden) for f in frames)
    assert crowd_frames(tmp_path, sets, 3, 15) == []
    assert len(crowd_frames(tmp_path, sets, 1, 5, count=4)) == 4
    # a photo cut to its middle loses the dice outside it: one die moved to the edge
    wide = {
        "golden": {"matteop65-valid_valid_10.jpg": [(1, (0, 0, 40, 40)), (2, (300, 200, 340, 240))]}
    }
    assert len(crowd_frames(tmp_path, wide, 1, 1)) == 1
    assert crowd_frames(tmp_path, wide, 2, 2) == []
    found = speed_by_dice(DiceReader(threads=1), tmp_path, sets)
    assert list(found) == ["1 to 5"] and found["1 to 5"]["frames"] == 6


def test_speed_holds_its_frames_as_jpeg_files_not_decoded(tmp_path):
    """The benchmark's peak memory is the reader's, not its own: ``speed`` keeps each frame
    as its JPEG file and decodes one at a time. (Holding its 60 decoded frames at once
    raised `make bench`'s peak from 139 to 205 MB.)"""
    frames = 12
    folder = tmp_path / "set"
    folder.mkdir()
    rng = np.random.default_rng(0)
    for i in range(frames):
        table = np.full((640, 640, 3), 90 + 10 * i, np.uint8)
        cv2.circle(table, (int(rng.integers(100, 540)), 320), 40, (240, 240, 240), -1)
        cv2.imwrite(str(folder / f"frame_{i:02d}.jpg"), table)

    class Reader:  # reads nothing: only what speed itself holds is traced
        def read(self, img):
            return []

    tracemalloc.start()
    try:
        out = speed(Reader(), tmp_path, passes=1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert out["frames"] == frames
    decoded = 640 * 640 * 3
    assert peak < 4 * decoded, f"{peak / decoded:.1f} decoded frames' bytes at the peak"


def test_a_models_folder_without_models_is_named(tmp_path, capsys):
    golden_set(tmp_path)
    assert main(["bench", "vision", "--data", str(tmp_path), "--models", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"no dice models in {tmp_path}" in err and "dice-detector.onnx" in err


def test_calibration_picks_thresholds_by_its_rules_on_the_dev_photos(tmp_path, capsys):
    # The golden photos it reads right (so the rules have something to choose), renamed
    # into the dev split of a copy of the shipped models.
    golden_dev_set(tmp_path / "data")
    models = tmp_path / "models"
    shutil.copytree(model_dir(), models, ignore=shutil.ignore_patterns("__*"))
    assert (
        main(
            [
                "bench",
                "vision",
                "--data",
                str(tmp_path / "data"),
                "--calibrate",
                "--models",
                str(models),
            ]
        )
        == 0
    )
    capsys.readouterr()
    card = json.loads((models / "dice.json").read_text())
    reader = DiceReader(models)

    faint = card["faint_threshold"]
    assert faint is not None  # kept by the calibration

    def dev(detect: float, conf: float, faint: float | None) -> dict:
        reader.detect_threshold, reader.min_confidence = detect, conf
        reader.faint_threshold = faint
        return evaluate(reader, tmp_path / "data", "dev")["all"]

    # detection, without faint peaks: the most photos entirely right among thresholds with
    # precision >= 95% (of those that tie, the strictest: fewer false dice), or the strictest
    # if none has it
    allowed = {d: dev(d, 0.0, None) for d in DETECTS}
    allowed = {d: r for d, r in allowed.items() if (r["precision"] or 0) >= 0.95}
    if allowed:
        best = max(r["photos_entirely_right"] for r in allowed.values())
        tied = [d for d, r in allowed.items() if r["photos_entirely_right"] == best]
        assert card["detect_threshold"] == max(tied)
    else:
        assert card["detect_threshold"] == DETECTS[-1]
    # unsure, with faint peaks as the reader runs: the lowest at which dice read with
    # confidence are at least 99% right and the boxes still at least 95% dice (on these few,
    # hard photos there may be none: then the strictest)
    runs = [dev(card["detect_threshold"], c, faint) for c in CONFIDENCES]
    meets = [
        c
        for c, r in zip(CONFIDENCES, runs, strict=True)
        if wrong_share(r) <= 0.01 and (r["precision"] or 1) >= 0.95
    ]
    assert card["min_confidence"] == (meets[0] if meets else CONFIDENCES[-1]), runs


class Scripted:
    """A reader that gives each picture the dice a script says (by the picture's width)."""

    def __init__(self, script: dict):
        self.script = script

    def read(self, img, detail=None):
        return self.script[img.shape[1]]


def test_the_benchmark_says_what_went_wrong_in_the_photos_not_read_right(tmp_path):
    die, other = (10, 10, 40, 40), (100, 10, 130, 40)
    photos = {  # width (names the photo): (labelled values, what the reader reports)
        300: ([1], [DieReading(die, 1, 0.9, "1")]),  # right
        301: ([1, 2], [DieReading(die, 1, 0.9, "1")]),  # the second die missed
        302: ([1], [DieReading(die, None, 0.5, "unsure")]),  # left unsure
        303: ([1], [DieReading(die, 2, 0.9, "2")]),  # misread
        304: ([1], [DieReading(die, 1, 0.9, "1"), DieReading(other, 2, 0.9, "2")]),  # extra
        305: ([1, 2], [DieReading(die, 2, 0.9, "2")]),  # misread and missed
    }
    rows = [
        dict(
            filename=f"p{width}.png",
            width=width,
            height=200,
            value=value,
            xmin=box[0],
            ymin=box[1],
            xmax=box[2],
            ymax=box[3],
            split="heldout",
        )
        for width, (values, _) in photos.items()
        for value, box in zip(values, (die, other), strict=False)
    ]
    write_set(tmp_path / "set", rows)
    for width in photos:
        cv2.imwrite(str(tmp_path / "set" / f"p{width}.png"), np.zeros((200, width, 3), np.uint8))
    script = {width: found for width, (_, found) in photos.items()}
    rates = evaluate(Scripted(script), tmp_path)["sets"]["set"]
    assert rates["photos_entirely_right"] == round(1 / 6, 4)
    assert rates["photos_lost_to"] == {"missed": 2, "unsure": 1, "misread": 2, "extra": 1}


def test_the_benchmark_counts_photos_by_how_many_dice_they_hold(tmp_path):
    """``by_crowding``: the photos of whole tables, and those read entirely right, by how many
    labelled dice each holds; crops of a single die are counted apart."""
    assert [crowd_band(n) for n in (1, 2, 3, 4, 12, 13, 40)] == [
        "1",
        "2 to 3",
        "2 to 3",
        "4 to 12",
        "4 to 12",
        "13 and more",
        "13 and more",
    ]
    dice = [(20 * k, 0, 20 * k + 15, 15) for k in range(13)]
    photos = {  # width (names the photo): (labelled dice, dice the reader reports right)
        300: (1, 1),
        301: (3, 2),  # one of the three missed
        302: (13, 13),
        303: (13, 12),
    }
    rows = [
        label(f"p{width}.png", 1, box, "heldout", width)
        for width, (held, _) in photos.items()
        for box in dice[:held]
    ]
    write_set(tmp_path / "set", rows)
    for width in photos:
        cv2.imwrite(str(tmp_path / "set" / f"p{width}.png"), np.zeros((200, width, 3), np.uint8))
    script = {w: [DieReading(b, 1, 0.9, "1") for b in dice[:got]] for w, (_, got) in photos.items()}
    rates = evaluate(Scripted(script), tmp_path)
    crowding = {
        "1": {"photos": 1, "entirely_right": 1},
        "2 to 3": {"photos": 1, "entirely_right": 0},
        "13 and more": {"photos": 2, "entirely_right": 1},
    }
    assert rates["sets"]["set"]["by_crowding"] == crowding
    assert rates["all"]["by_crowding"] == crowding


def test_the_benchmark_gives_the_photos_of_whole_tables_apart_from_the_crops(tmp_path):
    """``whole_tables``: the rates over the photos of whole tables alone. ``all`` also counts
    the crop sets' single dice, which lift its share of photos read entirely right."""
    die = (10, 10, 40, 40)
    write_set(tmp_path / "set", [label(f"p{w}.png", 1, die, "heldout", w) for w in (300, 301)])
    for w in (300, 301):
        cv2.imwrite(str(tmp_path / "set" / f"p{w}.png"), np.zeros((200, w, 3), np.uint8))
    crops = [label(f"c{k}.png", 3, (0, 0, 128, 128), "heldout", 128) for k in range(4)]
    write_set(tmp_path / "tomitomi3", crops)
    for k in range(4):
        cv2.imwrite(str(tmp_path / "tomitomi3" / f"c{k}.png"), np.zeros((128, 128, 3), np.uint8))

    class Reader(Scripted):
        def read_boxes(self, img, boxes):  # every crop read right: a 3
            return [DieReading(b, 3, 1.0, "3") for b in boxes]

    script = {300: [DieReading(die, 1, 0.9, "1")], 301: [DieReading(die, 2, 0.9, "2")]}
    report = evaluate(Reader(script), tmp_path)
    assert (report["all"]["photos"], report["all"]["photos_entirely_right"]) == (6, round(5 / 6, 4))
    tables = report["whole_tables"]
    assert (tables["photos"], tables["photos_entirely_right"], tables["recall"]) == (2, 0.5, 1.0)
    assert tables["by_crowding"] == {"1": {"photos": 2, "entirely_right": 1}}


def test_the_pi_streams_bench_finds_dice_at_half_size_and_reads_them_from_the_photo(
    tmp_path, capsys
):
    """``--pi-streams``: each photo is read as the Pi camera gives a frame, the dice found in
    it at half size (their labels halved) and their faces read from that picture, then from
    the photo itself; crops of a single die have no frame to find dice in and are left out."""
    die = (10, 10, 40, 40)
    write_set(tmp_path / "set", [label("p.png", 3, die, "heldout", side=0)])
    cv2.imwrite(str(tmp_path / "set" / "p.png"), np.zeros((200, 300, 3), np.uint8))
    write_set(tmp_path / "tomitomi3", [label("c.png", 3, (0, 0, 128, 128), "heldout", 128)])
    cv2.imwrite(str(tmp_path / "tomitomi3" / "c.png"), np.zeros((128, 128, 3), np.uint8))
    given = []

    class Seen:
        def read(self, img, detail=None):
            given.append((img.shape[:2], None if detail is None else detail.shape[:2]))
            return [DieReading(tuple(v / 2 for v in die), 3, 0.9, "3")]

    for detail, shape in ((False, None), (True, (200, 300))):
        widths = {}
        rates = evaluate(Seen(), tmp_path, streams=(0.5, detail), by_width=widths)
        assert list(rates["sets"]) == ["set"]
        assert given.pop() == ((100, 150), shape) and not given
        assert rates["all"]["photos_entirely_right"] == 1.0
        # the die, 30 px in the photo, is 15 px wide in the picture it was found in
        assert widths == {"under 16": {"dice": 1, "found": 1, "right": 1}}
    # a die reported where the label is at full size is not on the labelled die at half size
    widths = {}
    scripted = Scripted({150: [DieReading(die, 3, 0.9, "3")]})
    rates = evaluate(scripted, tmp_path, streams=(0.5, True), by_width=widths)
    assert rates["all"]["photos_entirely_right"] == 0.0
    assert widths == {"under 16": {"dice": 1, "found": 0, "right": 0}}

    cases = golden_set(tmp_path / "golden")
    assert main(["bench", "vision", "--data", str(tmp_path / "golden"), "--pi-streams"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["analysis_scale"] == 0.5
    for way in ("faces_from_the_analysis_picture", "faces_from_the_photo"):
        assert out[way]["sets"]["golden"]["photos"] == len(cases)
        dice = sum(len(case["values"]) for case in cases.values())
        assert sum(band["dice"] for band in out[way]["by_width"].values()) == dice


def test_the_enlarged_bench_reads_each_photo_at_a_phones_size(tmp_path, capsys):
    """``--enlarge K``: each photo (not a crop of one die) read enlarged K times, its labels
    with it, as a phone's full-size photo of the same table would be read."""
    die = (10, 10, 40, 40)
    write_set(tmp_path / "set", [label("p.png", 3, die, "heldout", side=0)])
    photo = np.zeros((200, 300, 3), np.uint8)
    photo[10:40, 10:40] = 255
    cv2.imwrite(str(tmp_path / "set" / "p.png"), photo)
    write_set(tmp_path / "tomitomi3", [label("c.png", 3, (0, 0, 128, 128), "heldout", 128)])
    cv2.imwrite(str(tmp_path / "tomitomi3" / "c.png"), np.zeros((128, 128, 3), np.uint8))
    given = []

    class Seen:
        def read(self, img, detail=None):
            given.append(img)
            return [DieReading(tuple(3 * v for v in die), 3, 0.9, "3")]

    rates = evaluate(Seen(), tmp_path, streams=(3.0, False))
    assert list(rates["sets"]) == ["set"]
    (seen,) = given
    assert seen.shape == (600, 900, 3)
    assert seen[60:90, 60:90].min() == 255 and seen[150:].max() == 0  # the photo, enlarged
    assert rates["all"]["photos_entirely_right"] == 1.0  # the label enlarged with it

    cases = golden_set(tmp_path / "golden")
    assert main(["bench", "vision", "--data", str(tmp_path / "golden"), "--enlarge", "2"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["enlarge"] == 2.0
    assert out["sets"]["golden"]["photos"] == len(cases)
    for wrong in (["--enlarge", "1"], ["--enlarge", "nan"], ["--enlarge", "3", "--pi-streams"]):
        assert main(["bench", "vision", "--data", str(tmp_path / "golden"), *wrong]) == 2
        assert "give a factor over 1 and at most 10" in capsys.readouterr().err

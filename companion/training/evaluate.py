"""The dice reader measured on labelled real photos: the photo sets and their splits,
matching the dice read to the labelled ones, and the rates reported. The speed is in
``speed.py``, picking the thresholds in ``calibrate.py``; ``companion bench vision``
(``companion/cli/bench/vision.py``) reports them.

Matching: a reported die matches a labelled one when their centres are closer than
half the larger of the two boxes' longer sides, each die used once, nearest first.
This counts a die found with its whole body or with its top face only as found (the
matteop65 labels surround the pips, not the die). Crops of a single die
(chase_casino, tomitomi3) test reading only: the crop is the die, so the reader reads
the die in its box as it reads a found one (``read_boxes``: the second look, the opinions and
the veto; a box read as no die counts as missed) and no detection is counted for it.

``--split dev`` measures the tenth of the train photos that training kept aside (chosen by
source photo, so that no copy of a dev photo is trained on), ``--split train`` the rest of
the train photos. Nothing is ever tuned on the held-out split.
"""

from __future__ import annotations

import csv
import itertools
import re
import zlib
from collections import Counter, defaultdict
from pathlib import Path

import cv2
import numpy as np

from companion.errors import VisionError
from companion.vision.pictures import as_bgr
from companion.vision.reader import DiceReader, DieReading

CROP_SETS = {"chase_casino": 1.0, "tomitomi3": 0.46}  # share of the crop the die fills


def source_photo(name: str) -> str:
    """What a labelled file was made from, so that near-copies fall on one side of a split:
    the photo behind a Roboflow export's augmented copies (``NAME_jpg.rf.HASH.jpg``), the
    drone frame behind a crop (``..._DJI_<time>_<frame>_D_detection_N``), or else a run of
    ten consecutive frames (``train_two_31.jpg`` to ``_39``: one scene filmed)."""
    if ".rf." in name:
        return name.split(".rf.")[0]
    frame = re.search(r"DJI_\d+_\d+", name)
    if frame:
        return frame.group()
    stem = name.rsplit(".", 1)[0]
    numbers = list(re.finditer(r"\d+", stem))
    if not numbers:
        return stem
    last = numbers[-1]
    return f"{stem[: last.start()]}{int(last.group()) // 10}x{stem[last.end() :]}"


def is_dev(name: str) -> bool:
    """The tenth of the train photos kept aside for development (the same rule as training),
    chosen by source photo: no copy of a dev photo is trained on."""
    return zlib.crc32(source_photo(name).encode()) % 10 == 0


# Salt-and-pepper noise: most epanemu train photos carry it (an exporter's augmentation),
# its held-out photos and a camera's frames do not. A pixel whose grey level is more than
# SPECK_LEVELS from its 3x3 median is a speck; a photo with more than SPECKLED of them has it.
SPECK_LEVELS = 80
SPECKLED = 0.002


def _specks(img: np.ndarray) -> np.ndarray:
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    return cv2.absdiff(grey, cv2.medianBlur(grey, 3)) > SPECK_LEVELS


def despeckle(img: np.ndarray) -> np.ndarray:
    """A colour photo with salt-and-pepper noise cleaned (each speck takes its 3x3 median's
    colour); any other picture as it is."""
    if img.ndim != 3 or img.shape[2] != 3:
        return img
    specks = _specks(img)
    if specks.mean() <= SPECKLED:
        return img
    out = img.copy()
    out[specks] = cv2.medianBlur(img, 3)[specks]
    return out


def load_split(data: Path, split: str) -> dict[str, dict[str, list]]:
    """{set: {filename: [(value, box)]}} for the rows of ``split``: "heldout", "dev" and
    "train" as the module says, or "all" (every row, train and held-out: a source measured
    by models that never learned from it, ``loso.py``)."""
    if not data.is_dir():
        raise VisionError(
            f"no photo folder at {data}: pass --data with the labelled dice "
            "photos (folders holding a labels.csv)",
            code="vision/no-data",
        )
    sets: dict[str, dict[str, list]] = {}
    for labels in sorted(data.glob("*/labels.csv")):
        files: dict[str, list] = defaultdict(list)
        with open(labels) as f:
            for row in csv.DictReader(f):
                if split == "all":
                    want = True
                elif split in ("dev", "train"):  # train: the train rows outside dev
                    want = row["split"] == "train" and is_dev(row["filename"]) == (split == "dev")
                else:
                    want = row["split"] == split
                if want:
                    box = tuple(int(row[k]) for k in ("xmin", "ymin", "xmax", "ymax"))
                    files[row["filename"]].append((int(row["value"]), box))
        if files:
            sets[labels.parent.name] = dict(files)
    if not sets:
        raise VisionError(f"no labels.csv with {split} rows under {data}", code="vision/no-data")
    return sets


def match(found: list, truth: list) -> list[tuple[int, int]]:
    """Pairs (found index, truth index), nearest centres first, each used once."""
    pairs = []
    for i, f in enumerate(found):
        fb = f.box
        for j, (_, tb) in enumerate(truth):
            fc = ((fb[0] + fb[2]) / 2, (fb[1] + fb[3]) / 2)
            tc = ((tb[0] + tb[2]) / 2, (tb[1] + tb[3]) / 2)
            d = float(np.hypot(fc[0] - tc[0], fc[1] - tc[1]))
            limit = 0.5 * max(fb[2] - fb[0], fb[3] - fb[1], tb[2] - tb[0], tb[3] - tb[1])
            if d < limit:
                pairs.append((d, i, j))
    used_f, used_t, out = set(), set(), []
    for _, i, j in sorted(pairs):
        if i not in used_f and j not in used_t:
            used_f.add(i)
            used_t.add(j)
            out.append((i, j))
    return out


def evaluate(
    reader: DiceReader,
    data: Path,
    split: str = "heldout",
    limit: int | None = None,
    per_photo: dict | None = None,
    streams: tuple[float, bool] | None = None,
    by_width: dict | None = None,
) -> dict:
    """The reader's figures on ``split``; ``per_photo``, when given, is filled with whether
    each photo ("set/file") was read entirely right.

    ``streams``, ``(scale, detail)``: the photos (not the crop sets) read as a camera's two
    streams give them: the dice found in each photo scaled by ``scale`` (under 1, shrunk),
    and their faces read from that picture, or with ``detail`` from the photo itself
    (``DiceReader.read``). A ``scale`` over 1 enlarges each photo (``bench_enlarged``).

    ``by_width``, when given, is filled with the labelled dice of the photo sets counted by
    their width in the picture the dice are found in (``width_band``): how many, how many
    found, how many read right."""
    sets = load_split(data, split)
    report: dict = {"split": split, "sets": {}}
    totals, tables = defaultdict(int), defaultdict(int)
    for name, files in sets.items():
        if streams is not None and name in CROP_SETS:
            continue
        t = defaultdict(int)
        for fn, img in photos(data, name, files, limit):
            found, truth = read_photo(reader, img, name, files[fn], streams)
            whole = _count(t, name, found, truth, by_width)
            if per_photo is not None:
                per_photo[f"{name}/{fn}"] = whole
        report["sets"][name] = _rates(t)
        for k, v in t.items():
            totals[k] += v
            if name not in CROP_SETS:
                tables[k] += v
    report["all"] = _rates(totals)
    # The photos of whole tables alone: "all" also counts the crop sets' single dice (on the
    # held-out split 542 of its 758 photos, nearly all read right), which lift its share of
    # photos read entirely right far above what a table's photo gets (models/README.md).
    if tables["photos"]:
        report["whole_tables"] = _rates(tables)
    return report


def photos(data: Path, name: str, files: dict, limit: int | None = None):
    """Each photo of the set ``name`` (``files``: {filename: labels}), by file name, as
    (filename, picture as read), the first ``limit`` of them; a file that cannot be read is
    named."""
    for fn in sorted(files)[:limit]:
        img = cv2.imread(str(data / name / fn), cv2.IMREAD_UNCHANGED)
        if img is None:
            raise VisionError(f"cannot read {data / name / fn}", code="vision/bad-image")
        yield fn, img


def read_photo(
    reader: DiceReader, img: np.ndarray, name: str, truth: list, streams: tuple | None
) -> tuple[list[DieReading], list]:
    """The dice read in one photo of the set ``name`` (as ``evaluate`` says), and its labels
    ``truth`` in the pixels of the picture they were found in."""
    if streams is not None:
        scale, detail = streams
        h, w = img.shape[:2]
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
        way = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
        scaled = cv2.resize(img, size, interpolation=way)
        found = reader.read(scaled, img if detail else None)
        return found, [(v, tuple(c * scale for c in box)) for v, box in truth]
    if name in CROP_SETS:
        img = as_bgr(img)
        return reader.read_boxes(img, [crop_box(img, name)]), truth
    return reader.read(img), truth


def crop_box(img: np.ndarray, name: str) -> tuple[int, int, int, int]:
    """The box of the die in a crop of the crop set ``name`` (the middle share it fills)."""
    h, w = img.shape[:2]
    k = (1 - CROP_SETS[name]) / 2
    return (int(w * k), int(h * k), int(w * (1 - k)), int(h * (1 - k)))


def outcomes(found: list, truth: list) -> list[tuple[str, int | None]]:
    """Each labelled die in ``truth`` as the reader read it (``found``): "right", "unsure",
    "wrong" (read as another face with confidence) or "missed" (no box on it), with the
    index of the die found on it (None where missed)."""
    on = {j: i for i, j in match(found, truth)}
    out: list[tuple[str, int | None]] = []
    for j, (value, _) in enumerate(truth):
        i = on.get(j)
        if i is None:
            out.append(("missed", None))
        elif found[i].value is None:
            out.append(("unsure", i))
        else:
            out.append(("right" if found[i].value == value else "wrong", i))
    return out


def _count(t: dict, name: str, found: list, truth: list, by_width: dict | None) -> bool:
    """Counts one photo of the set ``name`` into its tallies ``t`` (and ``by_width``, as
    ``evaluate`` says), and says whether it was read entirely right."""
    each = [o for o, _ in outcomes(found, truth)]
    matched = len(each) - each.count("missed")
    if by_width is not None and name not in CROP_SETS:
        for o, (_, (x0, y0, x1, y1)) in zip(each, truth, strict=True):
            band = by_width.setdefault(width_band(max(x1 - x0, y1 - y0)), Counter())
            band.update(dice=1, found=int(o != "missed"), right=int(o == "right"))
    whole = each.count("right") == len(truth) and (name in CROP_SETS or len(found) == len(truth))
    if name not in CROP_SETS:
        t["found"] += len(found)
        crowd = crowd_band(len(truth))
        t[f"crowd_photos:{crowd}"] += 1
        t[f"crowd_right:{crowd}"] += whole
    t["photos"] += 1
    t["dice"] += len(truth)
    t["matched"] += matched
    t["right"] += each.count("right")
    t["unsure"] += each.count("unsure")
    t["photos_right"] += whole
    # why a photo is not read entirely right (one photo may have several reasons)
    t["lost_missed"] += "missed" in each
    t["lost_unsure"] += "unsure" in each
    t["lost_misread"] += "wrong" in each
    t["lost_extra"] += len(found) > matched
    if name not in CROP_SETS:
        t["det_dice"] += len(truth)
        t["det_matched"] += matched
    return whole


def wrong_share(rates: dict) -> float:
    """Of the dice found and read with confidence, the share read wrong."""
    sure = 1 - (rates["unsure"] or 0)
    return (sure - (rates["value_accuracy"] or 0)) / sure if sure else 0.0


def _rates(t: dict) -> dict:
    def share(a, b):
        return round(a / b, 4) if b else None

    rates = {
        "photos": t["photos"],
        "dice": t["dice"],
        "recall": share(t["det_matched"], t["det_dice"]),
        "precision": share(t["det_matched"], t["found"]),
        "value_accuracy": share(t["right"], t["matched"]),
        "dice_read_right": share(t["right"], t["dice"]),
        "unsure": share(t["unsure"], t["matched"]),
        "photos_entirely_right": share(t["photos_right"], t["photos"]),
        # photos not read entirely right, by what went wrong in them: a labelled die found by
        # no box, a die left unsure, a die read as another value, a box on no labelled die
        "photos_lost_to": {
            why: t[f"lost_{why}"] for why in ("missed", "unsure", "misread", "extra")
        },
    }
    rates["wrong_when_sure"] = round(wrong_share(rates), 4) if t["matched"] else None
    # photos of whole tables by how many labelled dice they hold: a crowded photo is seldom
    # read entirely right, and the splits hold different shares of them
    bands = dict.fromkeys(crowd_band(n) for n in (*range(CROWDS[0]), *CROWDS))
    crowding = {
        band: {"photos": t[f"crowd_photos:{band}"], "entirely_right": t[f"crowd_right:{band}"]}
        for band in bands
        if t.get(f"crowd_photos:{band}")
    }
    if crowding:
        rates["by_crowding"] = crowding
    return rates


CROWDS = (2, 4, 13)  # the bands of labelled dice a photo ``by_crowding`` counts in


def crowd_band(dice: int) -> str:
    """The band of CROWDS a photo of ``dice`` labelled dice falls in: "1", "2 to 3", "4 to
    12", "13 and more"."""
    if dice < CROWDS[0]:
        return str(dice)
    for low, high in itertools.pairwise(CROWDS):
        if dice < high:
            return f"{low} to {high - 1}"
    return f"{CROWDS[-1]} and more"


WIDTHS = (16, 25, 40)  # the bands of die widths in pixels ``by_width`` counts in


def width_band(side: float) -> str:
    """The band of WIDTHS a die ``side`` pixels wide falls in: "under 16", "16 to 25", ..."""
    if side < WIDTHS[0]:
        return f"under {WIDTHS[0]}"
    for low, high in itertools.pairwise(WIDTHS):
        if side < high:
            return f"{low} to {high}"
    return f"{WIDTHS[-1]} and over"

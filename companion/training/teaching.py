"""``companion bench teach``: how much teaching a source's dice helps the reader read the rest
of that source (``companion teach NAME --standard``, ``vision/taught.py``).

For each photo source, a few of its train photos are the shows: their dice, found as
teaching finds them (the detector and its close-up pass, every box matched to a labelled
die; a crop set's die in its box), each labelled with its face, until every face has been
shown ``per_face`` times (about what a host showing a set of five dice in five places per
face gives). The set is taught from them as ``companion teach --standard`` teaches it,
cross-validation guard and all, and the source's held-out photos, none of which was shown,
are read by the reader before and after. The reader is one that never learned from the
source: the shipped one where no shipped model learned from it, else the held-out reader
`make loso` trained (``loso.loso_models``); a source with neither is not measured.

A photo source is not always one set of dice as a table's is: some hold many sets mixed
(rune55_trays, epanemu); their figures are what teaching does for a mixed set. Numeral dice
in unfamiliar fonts, one set a font family, are measured by ``bench teach --fonts``
(``cli/bench/numerals.py``).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from companion.errors import VisionError
from companion.training.evaluate import CROP_SETS, crop_box, load_split, match, photos
from companion.training.loso import has_opinion, loso_models, read_source
from companion.vision import taught
from companion.vision.pictures import as_bgr
from companion.vision.reader import DiceReader
from companion.vision.teach import are_dice, face_readings, learn_shown, shown_boxes

PER_FACE = 25  # dice shown of each face
KEPT = ("dice_read_right", "unsure", "wrong_while_sure", "missed", "photos_entirely_right")


def shown(reader: DiceReader, img: np.ndarray, name: str, truth: list) -> tuple[dict, list]:
    """How each classifier reads the labelled dice of one photo that teaching would find in
    it (``teach.show_dice``), and their faces (0..5)."""
    img = as_bgr(img)
    if name in CROP_SETS:
        boxes, labels = [crop_box(img, name)], [truth[0][0]]
    else:
        found = shown_boxes(reader, img)
        pairs = match([SimpleNamespace(box=b) for b, _ in found], truth)
        boxes = [found[i][0] for i, _ in pairs]
        labels = [truth[j][0] for _, j in pairs]
    if not boxes:
        return {}, []
    readings = reader.every_reading(img, boxes)
    die = are_dice(reader, readings)
    faces = [v - 1 for v, d in zip(labels, die, strict=True) if d]
    return (face_readings(reader, readings, die), faces) if faces else ({}, [])


def show_photos(files: dict, per_face: int) -> list[str]:
    """The train photos shown: spread evenly over the source's (sorted) photos, taken in
    that order until every face has ``per_face`` dice or the photos run out."""
    names = sorted(files)
    order = [names[i] for i in np.argsort(_spread(len(names)), kind="stable")]
    counts: Counter = Counter()
    chosen = []
    for fn in order:
        if all(counts[v] >= per_face for v in range(1, 7)):
            break
        chosen.append(fn)
        counts.update(v for v, _ in files[fn])
    return chosen


def _spread(n: int) -> np.ndarray:
    """A rank for each of ``n`` places such that taking them by rank spreads them evenly
    (the bit-reversed order of their positions)."""
    return np.array([int(f"{i:032b}"[::-1], 2) for i in range(n)])


def teach_source(reader: DiceReader, data: Path, name: str, files: dict, per_face: int):
    """The set of ``name``'s dice taught from its shown photos, or the error saying why
    nothing was taught; and how many dice and photos were shown."""
    chosen, shows = show_photos(files, per_face), []
    for k, (fn, img) in enumerate(photos(data, name, {f: files[f] for f in chosen})):
        found, faces = shown(reader, img, name, files[fn])
        shows.append((found, faces, k % taught.FOLDS))
    try:
        result = learn_shown(reader, name, shows)
    except VisionError as exc:
        result = exc
    return result, sum(len(faces) for _, faces, _ in shows), len(chosen)


def bench_teach(
    data: Path, loso: Path, shipped: Path, scratch: Path, per_face: int = PER_FACE
) -> dict:
    """Each source's held-out photos read before and after teaching its shown train photos
    (the module says how)."""
    shipped_on = set(json.loads((shipped / "dice.json").read_text()).get("trained_on", []))
    train, heldout = load_split(data, "all"), load_split(data, "heldout")
    sources: dict = {}
    for name in sorted(heldout):
        files = {f: v for f, v in train[name].items() if f not in heldout[name]}
        if name not in shipped_on:
            models, by = shipped, "shipped reader"
        elif (loso / name / "dice-faces.onnx").is_file():
            held = loso / name
            models = loso_models(shipped, held, scratch / name, cascade=has_opinion(held))
            by = "held-out reader" if has_opinion(held) else "held-out classifier"
        else:
            sources[name] = {"not_measured": f"no classifier in {loso / name}: run `make loso`"}
            continue
        reader = DiceReader(models)
        taught_set, dice, shows = teach_source(reader, data, name, files, per_face)
        out = {"read_by": by, "photos_shown": shows, "dice_shown": dice}
        out["before"] = _kept(read_source(reader, data, name, heldout[name]))
        if isinstance(taught_set, VisionError):
            out["not_taught"] = taught_set.message
        else:
            out["shows_cross_validated"] = taught_set.figures["classifiers"]
            after = DiceReader(models, custom=taught_set)
            out["after"] = _kept(read_source(after, data, name, heldout[name]))
        sources[name] = out
    return {"per_face": per_face, "sources": sources}


def _kept(report: dict) -> dict:
    return {"dice": report["dice"], **{k: report[k] for k in KEPT}}

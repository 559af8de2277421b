"""``companion bench vision``: the dice reader measured on labelled real photos.

    companion bench vision --data ../shared/data/dice [--split heldout]

For every photo set in --data (folders with a labels.csv, see its README) it reads
the photos of one split and reports die recall, precision, value accuracy, the share
of photos read entirely right (what went wrong in the others, and the photos of whole
tables by how many labelled dice they hold: ``by_crowding``), all of it over every photo
(``all``) and over the photos of whole tables alone (``whole_tables``, without the crops of
a single die, which are nearly all read right), and speed: the
median milliseconds to read a 640x640 frame on one thread, next to the median
milliseconds to decode the same JPEG, the same by how many dice a frame holds (640x640
frames cut from every source's table photos: ``speed_by_dice``), and the peak resident
memory.

``--pi-streams`` reads the photo sets as the Pi camera gives a frame: the dice found in
each photo at half its size (the 640x480 analysis stream of a 1280x960 main stream), their
faces read from that picture, and then from the photo itself (the main stream).
``--enlarge F`` reads each photo F times larger (a phone's full-size photo of the same
table), and ``--against DIR`` compares two models folders photo by photo (never on the
held-out split). How a die read is matched to a labelled one, the splits and
``--calibrate``: ``companion/training/calibrate.py``.
"""

from __future__ import annotations

import math
import resource
from pathlib import Path

from companion.training.evaluate import CROP_SETS, WIDTHS, evaluate, load_split, width_band
from companion.training.speed import speed, speed_by_dice
from companion.vision.reader import DiceReader, model_dir


def bench_vision(data: Path, split: str = "heldout", models: Path | None = None) -> dict:
    """The photo sets of ``split`` read by the models in ``models``: the rates, the speed,
    the peak memory and the thresholds read with."""
    reader = DiceReader(models or model_dir(), threads=1)
    out = evaluate(reader, data, split)
    out["speed"] = speed(reader, data)
    tables = {n: f for n, f in load_split(data, "all").items() if n not in CROP_SETS}
    out["speed"]["by_dice"] = speed_by_dice(reader, data, tables)
    out["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    out["thresholds"] = {
        "detect": reader.detect_threshold,
        "min_confidence": reader.min_confidence,
        "faint": reader.faint_threshold,
        "second_look": list(reader.second_look),
    }
    return out


# The Pi camera's two streams, as --pi-streams reads a photo: the dice found in it shrunk to
# half its side (the analysis stream), their faces read from that picture or from the photo
ANALYSIS_SCALE = 0.5
STREAM_WAYS = (("faces_from_the_analysis_picture", False), ("faces_from_the_photo", True))


def bench_streams(data: Path, split: str, models: Path, shrink: float = ANALYSIS_SCALE) -> dict:
    """The photo sets read as the Pi camera's two streams give a frame: the dice found in
    the photo at ``shrink`` of its size (the analysis stream), their faces read from that
    picture, and then from the photo itself (the main stream, ``DiceReader.read``'s
    ``detail``)."""
    reader = DiceReader(models, threads=1)
    out = {"split": split, "models": str(models), "analysis_scale": shrink}
    for way, detail in STREAM_WAYS:
        widths: dict = {}
        out[way] = evaluate(reader, data, split, streams=(shrink, detail), by_width=widths)
        out[way]["by_width"] = {
            band: dict(widths[band]) for band in map(width_band, (0, *WIDTHS)) if band in widths
        }
    return out


def bench_enlarged(data: Path, split: str, models: Path, enlarge: float) -> dict:
    """The photo sets with each photo enlarged ``enlarge`` times and read at that size: a
    phone's full-size photo of the same table (some 4000 px), where the reader also reads
    tile by tile (over 1024 px). Crops of single dice are left out, as ``bench_streams``
    leaves them out."""
    reader = DiceReader(models, threads=1)
    found = evaluate(reader, data, split, streams=(enlarge, False))
    return {"split": split, "models": str(models), "enlarge": enlarge, **found}


def compare(
    data: Path,
    split: str,
    models: Path,
    against: Path,
    streams: tuple[float, bool] | None = None,
) -> dict:
    """Two models folders on the same photos, photo by photo, as a candidate is judged
    against the shipped models: the photos one reads entirely right and the other does not.
    A net gain past two sigma (twice the square root of the photos that differ) is one no
    coin-flip between the two would often give. ``streams`` as for ``evaluate``."""
    ours: dict[str, bool] = {}
    theirs: dict[str, bool] = {}
    mine = evaluate(DiceReader(models, threads=1), data, split, per_photo=ours, streams=streams)
    other = evaluate(DiceReader(against, threads=1), data, split, per_photo=theirs, streams=streams)
    gained = sorted(k for k in ours if ours[k] and not theirs[k])
    lost = sorted(k for k in ours if theirs[k] and not ours[k])
    net, two_sigma = len(gained) - len(lost), 2 * math.sqrt(len(gained) + len(lost))
    return {
        "split": split,
        "models": str(models),
        "against": str(against),
        "all": mine["all"],
        "against_all": other["all"],
        "sets": {
            name: {"models": rates, "against": other["sets"][name]}
            for name, rates in mine["sets"].items()
        },
        "photos_entirely_right": {
            "gained": len(gained),
            "lost": len(lost),
            "net": net,
            "two_sigma": round(two_sigma, 2),
            "past_two_sigma": net > two_sigma,
            "gained_photos": gained,
            "lost_photos": lost,
        },
    }


def compare_streams(
    data: Path, split: str, models: Path, against: Path, shrink: float = ANALYSIS_SCALE
) -> dict:
    """``compare`` on the photos read as the Pi camera's two streams give a frame
    (``bench_streams``), each way the faces are read."""
    out: dict = {"analysis_scale": shrink}
    for way, detail in STREAM_WAYS:
        out[way] = compare(data, split, models, against, streams=(shrink, detail))
    return out

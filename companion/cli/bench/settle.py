"""``companion bench settle``: from dice lying still to the roll the game is given.

    companion bench settle --data ../shared/data/dice [--split heldout] [--frames 20]

A camera cannot be pointed at the labelled photos, so each photo of the sets that show
whole tables (not the crops of single dice) is made into a live rest. After a moving frame
come ``frames`` still frames, each the photo with a camera's sensor noise (Gaussian, sigma
2 levels), a shift under half a pixel and JPEG compression at quality 90, drawn from a
generator seeded by the file's name and ``seed``. The camera loop's own parts then handle
them: ``watch.motion`` measures each frame's motion, the shipped reader reads the still
ones, and a fresh ``Settler`` that expects the labelled number of dice is fed. A photo's
outcome is what its rest finally gives the game: the first event, or the revision that
replaces it (a roll to confirm read whole in a later window):

- right: a roll whose dice match the labelled dice one to one, each with its value (the
  game is given the right roll and nobody types);
- wrong: a roll that is not right (the game is given a wrong roll);
- confirm: an unsure roll or a wrong count (a player confirms or corrects it on a page);
- none: no event (the table page still says "waiting for a roll").

``revised`` counts rests whose roll to confirm was replaced by a revision; ``repeated``
counts rests that gave any other second event although nothing moved (a roll reported
twice). Per die: a labelled die in the final event, read with confidence, right or wrong.
"""

from __future__ import annotations

import statistics
import zlib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.errors import VisionError
from companion.training.evaluate import CROP_SETS, load_split, match
from companion.vision.reader import DiceReader, model_dir
from companion.vision.settle import Frame, Reading, Settled, Settler
from companion.vision.watch import motion

OUTCOMES = ("right", "wrong", "confirm", "none")


@dataclass(frozen=True)
class _Die:
    box: tuple[int, int, int, int]
    value: int | str | None


@dataclass(frozen=True)
class Rest:
    """What one settler made of one photo's rest."""

    outcome: str  # one of OUTCOMES
    frame: int | None  # the still frame (1-based) that gave the final event
    dice: tuple[str, ...]  # per labelled die: "right", "wrong" (trusted) or "other"
    repeated: bool  # a second event came while nothing moved (not the one revision)
    revised: bool = False  # the first event, a roll to confirm, was replaced by a revision


def live_frames(img: np.ndarray, rng: np.random.Generator, count: int) -> list[np.ndarray]:
    """``count`` camera frames of a still scene: noise, a sub-pixel shake, JPEG."""
    h, w = img.shape[:2]
    out = []
    for _ in range(count):
        dx, dy = rng.uniform(-0.5, 0.5, 2)
        shift = np.float32([[1, 0, dx], [0, 1, dy]])
        f = cv2.warpAffine(img, shift, (w, h), borderMode=cv2.BORDER_REFLECT)
        f = np.clip(f + rng.normal(0, 2, f.shape), 0, 255).astype(np.uint8)
        buf = cv2.imencode(".jpg", f, [cv2.IMWRITE_JPEG_QUALITY, 90])[1]
        out.append(cv2.imdecode(buf, cv2.IMREAD_COLOR))
    return out


def judge(events: list[tuple[int, Settled]], truth: list) -> Rest:
    if not events:
        return Rest("none", None, ("other",) * len(truth), False)
    frame, event = events[0]
    extra = len(events) - 1
    if event.kind != "roll":
        revision = next(((f, e) for f, e in events[1:] if e.revises), None)
        if revision is not None:
            (frame, event), extra = revision, extra - 1
    found = [_Die(b, v) for b, v in zip(event.boxes, event.values, strict=True)]
    pairs = match(found, truth)
    dice = ["other"] * len(truth)
    for i, j in pairs:
        if found[i].value is not None:
            dice[j] = "right" if found[i].value == truth[j][0] else "wrong"
    if event.kind != "roll":
        outcome = "confirm"
    else:
        whole = len(found) == len(truth) == len(pairs) and all(d == "right" for d in dice)
        outcome = "right" if whole else "wrong"
    return Rest(outcome, frame, tuple(dice), extra > 0, event.revises)


def rests(
    reader: DiceReader,
    data: Path,
    split: str,
    frames: int,
    seed: int,
    settlers: dict[str, Callable[[int], Settler]],
) -> Iterator[tuple[str, str, dict[str, Rest]]]:
    """(set, file, {settler name: its Rest}) for each photo; every settler is fed the same
    readings of the same frames."""
    for name, files in load_split(data, split).items():
        if name in CROP_SETS:
            continue
        for fn in sorted(files):
            img = cv2.imread(str(data / name / fn), cv2.IMREAD_COLOR)
            if img is None:
                raise VisionError(f"cannot read {data / name / fn}", code="vision/bad-image")
            truth = files[fn]
            rng = np.random.default_rng([zlib.crc32(fn.encode()), seed])
            live = {k: make(len(truth)) for k, make in settlers.items()}
            events: dict[str, list] = {k: [] for k in settlers}
            prev = None
            for i, f in enumerate(live_frames(img, rng, frames + 1)):
                moved, prev = motion(prev, f)
                found = reader.read(f) if moved <= Settler.motion_limit else []
                readings = tuple(Reading(d.box, d.value, d.confidence) for d in found)
                for k, s in live.items():
                    if (e := s.feed(Frame(readings, moved))) is not None:
                        events[k].append((i, e))
            yield name, fn, {k: judge(events[k], truth) for k in settlers}


def summary(results: list[Rest]) -> dict:
    count = Counter(r.outcome for r in results)
    dice = Counter(d for r in results for d in r.dice)
    n, labelled = len(results), sum(len(r.dice) for r in results)
    waits = [r.frame for r in results if r.frame is not None]
    return {
        "photos": n,
        **{o: count[o] for o in OUTCOMES},
        "rolls_right": round(count["right"] / n, 4) if n else None,
        "rolls_given": round((count["right"] + count["wrong"]) / n, 4) if n else None,
        "revised": sum(r.revised for r in results),
        "repeated": sum(r.repeated for r in results),
        "dice": labelled,
        "dice_trusted_right": dice["right"],
        "dice_trusted_wrong": dice["wrong"],
        "median_still_frames_to_final_event": statistics.median(waits) if waits else None,
    }


def bench_settle(
    data: Path,
    split: str = "heldout",
    frames: int = 20,
    seed: int = 0,
    models: Path | None = None,
) -> dict:
    reader = DiceReader(models or model_dir(), threads=1)
    by_set: dict[str, list[Rest]] = defaultdict(list)
    for name, _, rest in rests(reader, data, split, frames, seed, {"shipped": _shipped}):
        by_set[name].append(rest["shipped"])
    if not by_set:
        raise VisionError(
            f"no photos of whole tables in the {split} split under {data}", code="vision/no-data"
        )
    return {
        "split": split,
        "still_frames_a_rest": frames,
        "sets": {k: summary(v) for k, v in by_set.items()},
        "all": summary([r for v in by_set.values() for r in v]),
        "note": "each labelled photo as a live rest (sensor noise, sub-pixel shake, JPEG 90) "
        "read by the shipped reader and settled by a Settler expecting the labelled dice; "
        "outcome: what the game is finally given (the first event, or the revision that "
        "replaces a roll to confirm): right / wrong roll, confirm (unsure or wrong count), "
        "none (no event)",
    }


def _shipped(expected: int) -> Settler:
    return Settler(expected=expected)

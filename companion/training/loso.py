"""Leave one source out: how the reader reads the dice of a photo source it never learned from.

A held-out split of a source the models trained on hides the gap that matters, real photos
of other people's dice: its photos share the tables, the light and the dice of the train
photos. So each source in the photo folder is measured by a reader whose face classifier
never saw any of it: one stage of the training recipe run on every other source (and
rendered crops), ``make loso``, which writes ``<loso>/<source>/dice-faces.onnx`` and a card
naming the sets it learned from. That classifier reads every photo of its source, train
and held-out rows alike, behind the shipped detectors (which learned from the sets the
shipped card names in ``trained_on``: where that includes the source, the figures say so).
The shipped opinions and veto learned from every shipped source, so the measured reader
asks none. A source that no shipped model learned from is also read by the shipped reader
as it is: it is held out as it stands.

Every labelled die is one of: read right, left unsure, read wrong while sure, missed (no
box on it). Extra boxes (on no labelled die) are counted apart. The figures are shares of
the labelled dice, so the first four add up to one. Dice are also counted by body, light or
dark (``tone.body_level`` of the labelled box's middle, split at ``tone.LIGHT``); no source
labels numeral dice, so pips and numerals are not told apart.

``by_threshold``: the same dice as they would read with a higher ``min_confidence``: a sure
die read at a lower confidence counts as unsure (such a die would also be looked at again,
which may rescue it: the figures are a floor for dice right and exact for wrong while sure).
"""

from __future__ import annotations

import json
import shutil
from collections import Counter, defaultdict
from pathlib import Path

import cv2

from companion.errors import VisionError
from companion.training.evaluate import CROP_SETS, load_split, match, read_photo
from companion.vision import tone
from companion.vision.pictures import as_bgr
from companion.vision.reader import DiceReader

# the min_confidence values ``by_threshold`` reports
THRESHOLDS = (0.75, 0.8, 0.85, 0.9, 0.95, 0.98)
# The targets of a source held out (models/README.md): shares of its labelled dice, and of
# its photos read entirely right
TARGETS = {"dice_read_right": 0.97, "wrong_while_sure": 0.005, "photos_entirely_right": 0.90}
# matteop65's boxes surround the pips, not the die: its body cannot be measured in them, and
# its dice are all white (its README)
KNOWN_BODIES = {"matteop65": "light"}
OUTCOMES = ("right", "unsure", "wrong", "missed")


def loso_models(shipped: Path, trained: Path, into: Path) -> Path:
    """A models folder ``into`` reading with the shipped detectors (from ``shipped``) and the
    held-out classifier in ``trained`` alone (no opinion, no veto), at the shipped card's
    thresholds and the classifier's own looks; its card's ``trained_on`` is the
    classifier's."""
    card = json.loads((shipped / "dice.json").read_text())
    own = json.loads((trained / "dice.json").read_text())
    if own.get("classes") != card["classes"]:
        raise VisionError(
            f"{trained / 'dice.json'} names other classes than the shipped card: train it "
            "again with `make loso` (remove the folder first)",
            code="vision/card-mismatch",
        )
    into.mkdir(parents=True, exist_ok=True)
    for name in ("dice-detector.onnx", card.get("coarse_detector")):
        if name:
            shutil.copyfile(shipped / name, into / name)
    shutil.copyfile(trained / "dice-faces.onnx", into / "dice-faces.onnx")
    card.pop("second_opinion", None)
    card.pop("veto", None)
    card["looks"] = own.get("looks", "turns")
    card["trained_on"] = own.get("trained_on", [])
    (into / "dice.json").write_text(json.dumps(card, indent=1) + "\n")
    return into


def body(img, box, name: str) -> str:
    """ "light" or "dark": the body of the die at ``box`` in a photo of the set ``name``."""
    if name in KNOWN_BODIES:
        return KNOWN_BODIES[name]
    return "light" if tone.body_level(img, box) > tone.LIGHT else "dark"


class Tally:
    """One source's labelled dice and photos as a reader read them."""

    def __init__(self):
        self.dice: Counter = Counter()
        self.bodies: dict[str, Counter] = defaultdict(Counter)
        self.extra = 0
        # each photo: whether its dice were all found with no box on no die, and the
        # (confidence, read right) of each sure die; an unsure die makes it (None, False)
        self.photos: list[tuple[bool, list[tuple[float | None, bool]]]] = []

    def add(self, img, name: str, found: list, truth: list) -> None:
        """One photo of the set ``name``: the dice read (``found``) and the labelled ones."""
        pairs = dict((j, i) for i, j in match(found, truth))
        crop = name in CROP_SETS
        extra = 0 if crop else len(found) - len(pairs)
        self.extra += extra
        sure = []
        for j, (value, box) in enumerate(truth):
            if j not in pairs:
                outcome = "missed"
            else:
                die = found[pairs[j]]
                if die.value is None:
                    outcome = "unsure"
                    sure.append((None, False))
                else:
                    outcome = "right" if die.value == value else "wrong"
                    sure.append((die.confidence, die.value == value))
            self.dice[outcome] += 1
            where = found[pairs[j]].box if crop and j in pairs else box
            self.bodies[body(img, where, name)][outcome] += 1
        self.photos.append((len(pairs) == len(truth) and not extra, sure))

    def report(self, floor: float = 0.0) -> dict:
        """The shares of the labelled dice, the extra boxes, the photos read entirely
        right, by body and ``by_threshold`` (the module says how), from the ``floor`` the
        dice were read at (a lower threshold cannot be told from them) up."""
        out = {"photos": len(self.photos), **shares(self.dice), "extra_boxes": self.extra}
        out["photos_entirely_right"] = self.entirely_right(0.0)
        out["by_body"] = {b: shares(c) for b, c in sorted(self.bodies.items())}
        out["by_threshold"] = {f"{t:g}": self.at(t) for t in THRESHOLDS if t >= floor}
        return out

    def entirely_right(self, threshold: float) -> float | None:
        right = sum(
            ok and all(c is not None and c >= threshold and r for c, r in sure)
            for ok, sure in self.photos
        )
        return round(right / len(self.photos), 4) if self.photos else None

    def at(self, threshold: float) -> dict:
        """Dice right, wrong while sure and photos entirely right with ``min_confidence``
        at ``threshold``."""
        total = sum(self.dice.values())
        sure = [(c, r) for _, dice in self.photos for c, r in dice if c is not None]
        kept = [r for c, r in sure if c >= threshold]
        return {
            "dice_read_right": round(sum(kept) / total, 4) if total else None,
            "wrong_while_sure": round((len(kept) - sum(kept)) / total, 4) if total else None,
            "photos_entirely_right": self.entirely_right(threshold),
        }


def shares(counts: Counter) -> dict:
    """The labelled dice counted, and the share of each outcome."""
    total = sum(counts.values())
    named = {"right": "dice_read_right", "wrong": "wrong_while_sure"}
    out: dict = {"dice": total}
    for outcome in OUTCOMES:
        out[named.get(outcome, outcome)] = round(counts[outcome] / total, 4) if total else None
    return out


def read_source(reader: DiceReader, data: Path, name: str, files: dict) -> dict:
    """Every photo of the set ``name`` (``files``: {filename: labels}) read by ``reader``."""
    tally = Tally()
    for fn in sorted(files):
        img = cv2.imread(str(data / name / fn), cv2.IMREAD_UNCHANGED)
        if img is None:
            raise VisionError(f"cannot read {data / name / fn}", code="vision/bad-image")
        found, truth = read_photo(reader, img, name, files[fn], None)
        tally.add(as_bgr(img), name, found, truth)
    return tally.report(reader.min_confidence)


def bench_loso(data: Path, loso: Path, shipped: Path, scratch: Path) -> dict:
    """Each source in ``data`` read whole by the reader that never learned from it (the
    classifier ``make loso`` trained without it, in ``loso/<source>``; ``scratch`` holds the
    models folders made of it), and the sources no shipped model learned from by the shipped
    reader too; each against the targets."""
    shipped_on = set(json.loads((shipped / "dice.json").read_text()).get("trained_on", []))
    sources: dict = {}
    for name, files in load_split(data, "all").items():
        trained = loso / name
        if not (trained / "dice-faces.onnx").is_file():
            sources[name] = {"not_measured": f"no classifier in {trained}: run `make loso`"}
            continue
        models = loso_models(shipped, trained, scratch / name)
        learned = json.loads((models / "dice.json").read_text())["trained_on"]
        if name in learned:
            raise VisionError(
                f"{trained} learned from {name} itself: train it again with `make loso`",
                code="vision/not-held-out",
            )
        figures = read_source(DiceReader(models), data, name, files)
        figures["trained_on"] = learned
        figures["detector_learned_from_it"] = name in shipped_on and name not in CROP_SETS
        sources[name] = {"held_out_classifier": figures}
        if name not in shipped_on:
            sources[name]["shipped_reader"] = read_source(DiceReader(shipped), data, name, files)
    return {"sources": sources, "targets": TARGETS, "worst": worst(sources)}


def worst(sources: dict) -> dict:
    """Over the sources measured, the worst of each target's figure, the source it is on,
    and whether every source meets it."""
    out = {}
    measured = {n: s["held_out_classifier"] for n, s in sources.items() if "not_measured" not in s}
    for key, target in TARGETS.items():
        if not measured:
            break
        pick = max if key == "wrong_while_sure" else min
        name = pick(measured, key=lambda n: measured[n][key])
        value = measured[name][key]
        met = value <= target if key == "wrong_while_sure" else value >= target
        out[key] = {"value": value, "source": name, "target": target, "met": met}
    return out

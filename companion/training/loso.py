"""Leave one source out: how the reader reads the dice of a photo source it never learned from.

A held-out split of a source the models trained on hides the gap that matters, real photos
of other people's dice: its photos share the tables, the light and the dice of the train
photos. So each source in the photo folder is measured by a reader whose face classifier
never saw any of it: one stage of the training recipe run on every other source (and
rendered crops), ``make loso``, which writes ``<loso>/<source>/dice-faces.onnx`` and a card
naming the sets it learned from. That classifier reads every photo of its source, train
and held-out rows alike, behind the shipped detectors (which learned from the sets the
shipped card names in ``trained_on``: where that includes the source, the figures say so).
The shipped opinions and veto learned from every shipped source, so they are not asked:
``make loso`` also trains a held-out opinion (the same stage in quarter turns, as the
shipped opinion is read), and the held-out reader asks it as the shipped reader asks its
own (about the dice left unsure, and as the veto of those read surely). Each source is read
by the classifier alone and by that reader. A source that no shipped model learned from is
also read by the shipped reader as it is: it is held out as it stands.

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

from companion.errors import VisionError
from companion.training.evaluate import CROP_SETS, load_split, outcomes, photos, read_photo
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
# where `make loso` writes a source's held-out opinion, inside its classifier's folder
OPINION = "opinion"


def loso_models(shipped: Path, trained: Path, into: Path, cascade: bool = False) -> Path:
    """A models folder ``into`` reading with the shipped detectors (from ``shipped``) and the
    held-out classifier in ``trained``, at the shipped card's thresholds and the classifier's
    own looks; its card's ``trained_on`` is the union of what its classifiers learned from.

    Alone (no opinion, no veto), or with ``cascade`` as the shipped reader is built: the
    held-out opinion in ``trained/opinion`` (trained as the classifier, but in quarter turns)
    asked about each die the classifier leaves unsure, and, where the shipped card has a veto,
    the veto of each it reads surely at the shipped veto's confidence."""
    card = json.loads((shipped / "dice.json").read_text())
    own = own_card(trained, card)
    into.mkdir(parents=True, exist_ok=True)
    for name in ("dice-detector.onnx", card.get("coarse_detector")):
        if name:
            shutil.copyfile(shipped / name, into / name)
    shutil.copyfile(trained / "dice-faces.onnx", into / "dice-faces.onnx")
    veto = card.pop("veto", None) or {}
    card.pop("second_opinion", None)
    card["looks"] = own.get("looks", "turns")
    learned = set(own.get("trained_on", []))
    if cascade:
        other = own_card(trained / OPINION, card)
        shutil.copyfile(trained / OPINION / "dice-faces.onnx", into / "dice-opinion.onnx")
        looks = other.get("looks", "turns")
        card["second_opinion"] = [{"file": "dice-opinion.onnx", "looks": looks}]
        if veto:
            card["veto"] = {**veto, "file": "dice-opinion.onnx", "looks": looks}
        learned |= set(other.get("trained_on", []))
    card["trained_on"] = sorted(learned)
    (into / "dice.json").write_text(json.dumps(card, indent=1) + "\n")
    return into


def own_card(trained: Path, card: dict) -> dict:
    """The card `make loso` wrote beside the classifier in ``trained``, checked against the
    shipped ``card``'s classes."""
    own = json.loads((trained / "dice.json").read_text())
    if own.get("classes") != card["classes"]:
        raise VisionError(
            f"{trained / 'dice.json'} names other classes than the shipped card: train it "
            "again with `make loso` (remove the folder first)",
            code="vision/card-mismatch",
        )
    return own


def has_opinion(trained: Path) -> bool:
    """Whether `make loso` trained the held-out opinion beside the classifier in ``trained``."""
    return (trained / OPINION / "dice-faces.onnx").is_file()


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
        each = outcomes(found, truth)
        crop = name in CROP_SETS
        matched = sum(i is not None for _, i in each)
        extra = 0 if crop else len(found) - matched
        self.extra += extra
        sure = []
        for (outcome, i), (_, box) in zip(each, truth, strict=True):
            if outcome == "unsure":
                sure.append((None, False))
            elif outcome in ("right", "wrong"):
                sure.append((found[i].confidence, outcome == "right"))
            self.dice[outcome] += 1
            where = found[i].box if crop and i is not None else box
            self.bodies[body(img, where, name)][outcome] += 1
        self.photos.append((matched == len(truth) and not extra, sure))

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
    for fn, img in photos(data, name, files):
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
        readers = {"held_out_classifier": loso_models(shipped, trained, scratch / name)}
        if has_opinion(trained):
            readers["held_out_reader"] = loso_models(
                shipped, trained, scratch / f"{name}-cascade", cascade=True
            )
        sources[name] = {}
        for kind, models in readers.items():
            learned = json.loads((models / "dice.json").read_text())["trained_on"]
            if name in learned:
                raise VisionError(
                    f"{trained} learned from {name} itself: train it again with `make loso`",
                    code="vision/not-held-out",
                )
            figures = read_source(DiceReader(models), data, name, files)
            figures["trained_on"] = learned
            figures["detector_learned_from_it"] = name in shipped_on and name not in CROP_SETS
            sources[name][kind] = figures
        if name not in shipped_on:
            sources[name]["shipped_reader"] = read_source(DiceReader(shipped), data, name, files)
    return {"sources": sources, "targets": TARGETS, "worst": worst(sources)}


def worst(sources: dict) -> dict:
    """Over the sources measured, the worst of each target's figure, the source it is on,
    and whether every source meets it: of the held-out reader (classifier, opinion and veto)
    where `make loso` trained its opinion, else of the classifier alone."""
    out = {}
    measured = {
        n: s.get("held_out_reader", s.get("held_out_classifier"))
        for n, s in sources.items()
        if "not_measured" not in s
    }
    for key, target in TARGETS.items():
        if not measured:
            break
        pick = max if key == "wrong_while_sure" else min
        name = pick(measured, key=lambda n: measured[n][key])
        value = measured[name][key]
        met = value <= target if key == "wrong_while_sure" else value >= target
        out[key] = {"value": value, "source": name, "target": target, "met": met}
    return out

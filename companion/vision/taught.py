"""A taught set of standard dice (``companion teach NAME --standard``): the table's own pip
dice, read better than the general models read them.

The host shows each face, 1 to 6, of the dice in use; every die in a show has that face up.
Nothing is retrained: each classifier that reads standard dice (the face classifier, its
opinions, its veto) reads each show as it reads a throw, and a small head is fitted on its
answers, the six faces' probabilities and its 64-number embedding:

    faces = softmax(scale * log p + weights @ embedding + bias)

(``p``: the classifier's probabilities of the six faces, renormalised). With ``scale`` 1 and
the rest 0 it is the classifier itself, and the fit is held near that (an L2 penalty), so a
set taught from few shows is nudged, not remade. The head takes only the six faces' share of
each reading: "not a die" and the colour dots keep what the classifier gave them. Every
classifier is taught, not the first alone: an untaught veto would make unsure each die the
taught face classifier reads in a way the general models do not (a logo read as its face).

Teaching must never make the reader surer of a wrong face, so each classifier's head is
chosen by cross-validation on the shows themselves (``choose``): each candidate (how
strongly it is held near the classifier, and whether it may sharpen the classifier's
answer) is fitted on all but one fold of the shows and reads the fold left out, as the table
would read it (at ``min_confidence``); the candidates, and the classifier alone, are scored
by dice read right less ``WRONG_COST`` times the dice read wrong while sure, and a
classifier keeps its head only where that beats it alone. Where the face classifier, which
reads every die first, gains nothing, nothing is taught (``vision/teach-no-gain``): these
dice are already read as well as teaching would read them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from companion.errors import VisionError
from companion.textfile import write_whole

FACES = ("1", "2", "3", "4", "5", "6")
KIND = "standard"  # a taught file's "kind": a set of standard dice (else a die of symbols)
# A die read wrong while sure costs this many dice read right: a silent misread changes a
# score, an unsure die only asks a player.
WRONG_COST = 10
# The candidates ``choose`` tries: (L2 penalty towards the classifier, whether the head may
# scale the classifier's log-probabilities). A scale sharpens or flattens the classifier's
# answer: on one set of dice (tomitomi3's) it lifted dice read right the most; on mixed
# trays it also made more dice wrong while sure, which the cross-validation then refuses.
CANDIDATES = ((0.1, False), (0.01, False), (0.001, False), (0.01, True), (0.001, True))
FOLDS = 5
STEPS = 400  # full-batch Adam steps of a fit
RATE = 0.05
LEAST_SHOWS = 2  # dice shown of each face, at the least


@dataclass
class Head:
    """The head one classifier's answers are read through (the module says how)."""

    scale: float
    weights: np.ndarray  # (6, 64)
    bias: np.ndarray  # (6,)

    def adjust(self, probs: np.ndarray, emb: np.ndarray, at: list[int]) -> np.ndarray:
        """``probs`` (N, classes) with the six faces' columns ``at`` read by the head."""
        return apply(probs, emb, at, self.scale, self.weights, self.bias)

    def to_json(self) -> dict:
        return {
            "scale": round(float(self.scale), 6),
            "weights": [[round(float(x), 6) for x in row] for row in self.weights],
            "bias": [round(float(x), 6) for x in self.bias],
        }

    @classmethod
    def from_json(cls, data: dict) -> Head:
        weights = np.asarray(data["weights"], np.float32)
        bias = np.asarray(data["bias"], np.float32)
        if weights.shape != (len(FACES), 64) or bias.shape != (len(FACES),):
            raise ValueError(f"weights {weights.shape} and bias {bias.shape} are not (6, 64), (6,)")
        return cls(float(data["scale"]), weights, bias)


@dataclass
class TaughtSet:
    """A taught set: a head for each classifier the reader asks about standard dice (by its
    file name: the face classifier, its opinions, its veto) where teaching read the shows
    better, made for the classifiers ``model`` names (``DiceReader.taught_id``);
    ``figures``: how each classifier read the shows across their folds, taught and
    untaught (``choose``), and how many dice were shown."""

    name: str
    heads: dict[str, Head]
    model: str
    figures: dict = field(default_factory=dict)

    faces = FACES

    def save(self, path: Path) -> None:
        """Write the set to ``path`` whole or not at all (``write_whole``)."""
        text = json.dumps(
            {
                "kind": KIND,
                "name": self.name,
                "model": self.model,
                "heads": {f: h.to_json() for f, h in self.heads.items()},
                "figures": self.figures,
            },
            indent=1,
        )
        write_whole(path, text, f"the taught set {self.name!r}")

    @classmethod
    def from_json(cls, data: dict) -> TaughtSet:
        heads = {str(f): Head.from_json(h) for f, h in data["heads"].items()}
        return cls(data["name"], heads, data["model"], data.get("figures", {}))


def apply(probs, emb, at, scale, weights, bias) -> np.ndarray:
    """The head (the module says how) over the faces' columns ``at`` of ``probs``."""
    if not len(probs):
        return probs
    share = probs[:, at].sum(1, keepdims=True)
    logits = scale * _log_faces(probs[:, at]) + emb @ weights.T + bias
    out = probs.copy()
    out[:, at] = _softmax(logits) * share
    return out


def _log_faces(p: np.ndarray) -> np.ndarray:
    p = p / np.maximum(p.sum(1, keepdims=True), 1e-12)
    return np.log(np.maximum(p, 1e-6))


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(1, keepdims=True)


def fit(
    probs: np.ndarray, emb: np.ndarray, labels: np.ndarray, l2: float, learn_scale: bool
) -> tuple[float, np.ndarray, np.ndarray]:
    """(scale, weights, bias) minimising the cross-entropy of the six faces' ``probs``
    (N, 6) and ``emb`` (N, 64) against ``labels`` (0..5), plus ``l2`` times the squared
    distance from the classifier itself (scale 1, no weights, no bias)."""
    n = len(labels)
    logp = _log_faces(probs)
    onehot = np.eye(len(FACES), dtype=np.float64)[labels]
    params = [np.ones(1), np.zeros((len(FACES), emb.shape[1])), np.zeros(len(FACES))]
    moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]
    for step in range(1, STEPS + 1):
        scale, weights, bias = params
        q = _softmax(scale[0] * logp + emb @ weights.T + bias)
        dz = (q - onehot) / n
        grads = [
            np.array([(dz * logp).sum() + 2 * l2 * (scale[0] - 1)]) if learn_scale else np.zeros(1),
            dz.T @ emb + 2 * l2 * weights,
            dz.sum(0) + 2 * l2 * bias,
        ]
        for p, g, (m, v) in zip(params, grads, moments, strict=True):  # Adam
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            p -= RATE * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return float(params[0][0]), params[1].astype(np.float32), params[2].astype(np.float32)


def score(probs: np.ndarray, labels: np.ndarray, min_confidence: float) -> dict:
    """The shares of the dice read right, unsure and wrong while sure at ``min_confidence``,
    by the six faces' columns ``probs`` of the classifier's reading as the reader judges a
    die: sure where one face has at least ``min_confidence`` of all classes."""
    sure = probs.max(1) >= min_confidence
    right = sure & (probs.argmax(1) == labels)
    n = max(len(labels), 1)
    return {
        "right": round(float(right.sum()) / n, 4),
        "unsure": round(float((~sure).sum()) / n, 4),
        "wrong": round(float((sure & ~right).sum()) / n, 4),
    }


def worth(figures: dict) -> float:
    return figures["right"] - WRONG_COST * figures["wrong"]


def choose(
    probs: np.ndarray,
    emb: np.ndarray,
    labels: np.ndarray,
    folds: np.ndarray,
    min_confidence: float,
) -> tuple[tuple[float, bool] | None, dict]:
    """The candidate head (``CANDIDATES``) that reads the shows best across ``folds`` (each
    show's fold: the dice of one picture in one fold), or None where the classifier alone
    reads them as well; with the figures of the classifier alone ("untaught") and of the
    chosen head ("taught") across the folds. ``probs`` (N, 6): the six faces' columns of
    the classifier's probabilities (not renormalised: the share the other classes took
    stays out of every face, as in the reader)."""
    untaught = score(probs, labels, min_confidence)
    best, best_figures = None, untaught
    for l2, learn_scale in CANDIDATES:
        out = np.zeros_like(probs)
        for k in np.unique(folds):
            train, test = folds != k, folds == k
            head = fit(probs[train], emb[train], labels[train], l2, learn_scale)
            out[test] = apply(probs[test], emb[test], list(range(len(FACES))), *head)
        figures = score(out, labels, min_confidence)
        if worth(figures) > worth(best_figures):
            best, best_figures = (l2, learn_scale), figures
    return best, {"untaught": untaught, "taught": best_figures}


def teach_set(
    name: str,
    readings: dict[str, list[tuple[np.ndarray, np.ndarray]]],
    labels: np.ndarray,
    folds: np.ndarray,
    min_confidence: float,
    model: str,
) -> TaughtSet:
    """The taught set ``name`` from how each classifier (by file name, the face classifier
    first) read the shows: ``readings``, for each show in turn, (the six faces' columns of
    its probabilities (n, 6), its embeddings (n, 64)) of the show's dice; ``labels`` (0..5,
    the face each die was shown with) and ``folds``. Refused where a face has too few dice
    shown, or where teaching would not read the shows better than the face classifier alone
    (which reads every die first; the others are taught where it helps them)."""
    counts = np.bincount(labels, minlength=len(FACES))
    if short := [FACES[i] for i, c in enumerate(counts) if c < LEAST_SHOWS]:
        raise VisionError(
            f"too few dice shown with {', '.join(short)} up (at least {LEAST_SHOWS} of each "
            "face): show every face, 1 to 6, with the set's dice",
            code="vision/too-few-shows",
        )
    if len(np.unique(folds)) < 2:
        raise VisionError(
            "every show is one picture: show each face at least twice, the dice moved in between",
            code="vision/too-few-shows",
        )
    heads, figures = {}, {}
    for file, shows in readings.items():
        probs, emb = (np.vstack(x) for x in zip(*shows, strict=True))
        chosen, figures[file] = choose(probs, emb, labels, folds, min_confidence)
        if chosen is not None:
            l2, learn_scale = chosen
            heads[file] = Head(*fit(probs, emb, labels, l2, learn_scale))
            figures[file].update(l2=l2, scaled=learn_scale)
    first = next(iter(readings))  # the face classifier, which reads every die first
    if first not in heads:
        before = figures[first]["untaught"]
        raise VisionError(
            f"teaching would not read these dice better: the general reader already reads "
            f"{before['right']:.0%} of the shown dice right and {before['wrong']:.1%} wrong "
            "while sure, and no taught reading did better on the shows it had not seen. "
            "Nothing was saved: play with the general reader (no [vision] die), or show "
            "the faces again in the table's own light",
            code="vision/teach-no-gain",
        )
    return TaughtSet(name, heads, model, {"dice_shown": len(labels), "classifiers": figures})

"""The reader's cascade: what its other classifiers make of the dice the first one reads.

The face classifier reads every die (``DiceReader._read_each``). A die it leaves unsure is
read again with other margins (``second_look``) and then by the card's other classifiers in
turn (``second_opinion``); a die it reads with confidence is read again by the card's
``veto``, and made unsure where that surely reads another face (the model card).
``Cascade`` is that part of ``DiceReader``.
"""

from __future__ import annotations

import numpy as np


class Cascade:
    """The second looks, opinions and veto of ``DiceReader`` (which gives it ``_run``,
    ``_classify``, ``_crop``, the card's classes and thresholds, and the loaded helper
    classifiers)."""

    def _look_again(self, img: np.ndarray, boxes: list, probs: np.ndarray, cast=None) -> np.ndarray:
        """``probs`` with each unsure face read again from crops with the ``second_look``
        margins, and the looks averaged: a die's box may sit a little off, and one framing
        of a small die may hide a pip that another shows. ``cast``, here and below, as for
        ``DiceReader._classify``."""
        if not self.second_look:
            return probs
        again = self._unsure(probs)
        if not again:
            return probs
        looks = [self._crop(img, boxes[i], margin=m) for m in self.second_look for i in again]
        more = self._run(looks, cast=cast)[0].reshape(len(self.second_look), len(again), -1)
        probs = probs.copy()
        probs[again] = (probs[again] + more.sum(0)) / (1 + len(self.second_look))
        return probs

    def _second_opinion(self, crops: list[np.ndarray], probs: np.ndarray, cast=None) -> np.ndarray:
        """``probs`` with each face still unsure taken as the geometric mean (renormalised)
        of its reading and the second classifier's (the card's ``second_opinion``) of the
        same crop: two classifiers trained to look differently seldom doubt the same die.
        A card naming several opinions asks each in turn about the faces still unsure."""
        for session, looks in self._opinions:
            again = self._unsure(probs)
            if not again:
                break
            other = self._classify(session, [crops[i] for i in again], looks, cast)[0]
            probs = probs.copy()
            mean = np.sqrt(probs[again] * other)
            probs[again] = mean / np.maximum(mean.sum(1, keepdims=True), 1e-12)
        return probs

    def _vetoed(self, crops: list[np.ndarray], probs: np.ndarray, cast=None) -> dict[int, float]:
        """The faces read with confidence that the card's ``veto`` classifier reads, with at
        least the veto's confidence, as another face, each with the lower of the two
        classifiers' probabilities of the face read: such a die is reported unsure, for a
        player to confirm, rather than risk a silent misread that changes a score."""
        if self._veto is None:
            return {}
        session, looks, confidence = self._veto
        nod = self.classes.index("not-a-die")
        read = probs.argmax(1)
        sure = self._face_rows(probs, sure=True)
        if not sure:
            return {}
        other = self._classify(session, [crops[i] for i in sure], looks, cast)[0]
        return {
            i: min(float(probs[i, read[i]]), float(o[read[i]]))
            for i, o in zip(sure, other, strict=True)
            if int(o.argmax()) not in (nod, read[i]) and float(o.max()) >= confidence
        }

    def every_reading(self, img: np.ndarray, boxes: list) -> dict:
        """How each classifier that reads standard dice (the face classifier, the opinions,
        the veto) reads the die in each box: {file: (probabilities (N, classes), unit
        embeddings (N, 64))}, from the crops the reader reads them in."""
        crops = [self._crop(img, b) for b in boxes]
        return {file: self._classify(session, crops, looks) for file, session, looks in self._asked}

    def _unsure(self, probs: np.ndarray) -> list[int]:
        """The rows whose best class is a face but under ``min_confidence``."""
        return self._face_rows(probs, sure=False)

    def _face_rows(self, probs: np.ndarray, sure: bool) -> list[int]:
        """The rows whose best class is a face, read with confidence (at least
        ``min_confidence``) or not, as ``sure`` says."""
        nod = self.classes.index("not-a-die")
        return [
            i
            for i, p in enumerate(probs)
            if int(p.argmax()) != nod and (float(p.max()) >= self.min_confidence) == sure
        ]

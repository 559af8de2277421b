"""Custom dice, taught in the field (``companion teach``): dice whose faces are symbols,
each face known by the face classifier's embedding of its shows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from companion.errors import VisionError
from companion.textfile import write_whole
from companion.vision.boxes import box_side

if TYPE_CHECKING:
    from companion.vision.reader import DieReading


class CustomDice:
    """Dice whose faces are symbols, known by the classifier's embedding of each show.

    ``faces`` maps a face name to the mean unit embedding of its shows, ``shows`` to the
    unit embeddings of the shows themselves. A die is the face with the nearest show, if
    that show is within the face's ``radius`` (cosine distance; by default
    ``max_distance``) and nearer than ``RATIO`` times the nearest show of any other face
    (a ratio test: a die half-way between two faces is unsure, not guessed). ``model``
    names the face classifier and the symbol embedding that made them
    (``DiceReader.teach_id``); None for a die saved before it was kept.
    """

    RATIO = 0.7

    def __init__(
        self,
        name: str,
        faces: dict[str, np.ndarray],
        max_distance: float = 0.25,
        model: str | None = None,
        radius: dict[str, float] | None = None,
        shows: dict[str, np.ndarray] | None = None,
    ):
        self.name, self.faces, self.max_distance = name, faces, max_distance
        self.model = model
        self.radius = {f: (radius or {}).get(f, max_distance) for f in faces}
        shows = shows or {}
        self.shows = {f: np.atleast_2d(shows.get(f, faces[f])) for f in faces}

    def match(self, embedding: np.ndarray) -> tuple[str, float] | None:
        if not self.faces:
            return None
        names, dist = self._distances(embedding)
        order = np.argsort(dist)
        best = dist[order[0]]
        second = dist[order[1]] if len(order) > 1 else 1.0
        radius = self.radius[names[order[0]]]
        if best > radius or best > self.RATIO * second:
            return None
        return names[order[0]], float(max(0.0, 1 - best / radius))

    def near(self, embedding: np.ndarray) -> bool:
        """Whether ``embedding`` is within the radius of its nearest show's face: one of
        these dice, even when the ratio test leaves it unsure which face it shows."""
        names, dist = self._distances(embedding)
        i = int(np.argmin(dist))
        return bool(dist[i] <= self.radius[names[i]])

    def _distances(self, embedding: np.ndarray) -> tuple[list[str], np.ndarray]:
        """Each face's name and the cosine distance to its nearest show."""
        names = list(self.faces)
        return names, np.array([float((1 - self.shows[n] @ embedding).min()) for n in names])

    def save(self, path: Path) -> None:
        """Write the die to ``path`` whole or not at all: a full disk or a killed process
        leaves the die taught before as it was, never half a file."""
        text = json.dumps(
            {
                "name": self.name,
                "model": self.model,
                "max_distance": self.max_distance,
                "radius": {k: round(v, 4) for k, v in self.radius.items()},
                "faces": {k: [round(float(x), 6) for x in v] for k, v in self.faces.items()},
                "shows": {
                    k: [[round(float(x), 6) for x in e] for e in v] for k, v in self.shows.items()
                },
            },
            indent=1,
        )
        write_whole(path, text, "the taught die")

    @classmethod
    def load(cls, path: Path) -> CustomDice:
        try:
            data = json.loads(path.read_text())
            faces = {k: np.asarray(v, np.float32) for k, v in data["faces"].items()}
            return cls(
                data["name"],
                faces,
                data.get("max_distance", 0.25),
                data.get("model"),
                data.get("radius"),
                {k: np.asarray(v, np.float32) for k, v in data.get("shows", {}).items()},
            )
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise VisionError(
                f"cannot read the taught die {path}: {exc}. Teach it again with "
                "`companion teach NAME`."
            ) from exc


SMALLEST = 0.5  # of the taught dice's median side; chosen on rendered teach sets


def one_size(dice: list[DieReading]) -> list[DieReading]:
    """Taught dice are one set, so one size: once two boxes are named as taught faces, a box
    much smaller than they are is a token or a coin beside them, not a die."""
    named = [box_side(d.box) for d in dice if d.value is not None]
    if len(named) < 2:
        return dice
    floor = SMALLEST * float(np.median(named))
    return [d for d in dice if box_side(d.box) >= floor]

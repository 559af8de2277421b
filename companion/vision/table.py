"""The empty table, when a live camera has seen it: a second opinion, never a need.

The reader finds dice without any picture of the empty table. A camera that watches
the same table for a whole evening sees it empty now and then (before the first
roll, between rounds), and that picture helps in two ways:

- a box the detector found where the picture is the same as the empty table is not
  a die (a knot in the wood or a spot on the board that it took for one in this
  frame; something it takes for a die on the empty table too stops the learning);
- a die-sized patch that differs from the empty table and that the detector missed
  is handed to the face classifier, which reads it or says it is not a die.

The table is learned only from still frames in which nothing was found and nothing
differs, as a running average, so slow changes of light are followed. When the
picture no longer fits (the camera was knocked, the light changed at once) the
table is forgotten and relearned; until then the reader works as it does alone.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.reader import DiceReader, DieReading, reading_order

WIDTH = 320  # the empty table is kept this wide, in grey
CHANGED = 28  # grey levels: a pixel this much lighter or darker than the table changed
SAME = 0.08  # a found box with less than this share of changed pixels is the table itself
STALE = 0.12  # more than this share changed outside the dice: the view moved, forget it
LEARN_FRAMES = 3  # still, empty frames before the table is trusted


class EmptyTable:
    def __init__(self) -> None:
        self._ref: np.ndarray | None = None
        self._seen = 0

    @property
    def ready(self) -> bool:
        return self._seen >= LEARN_FRAMES

    def forget(self) -> None:
        self._ref, self._seen = None, 0

    def _small(self, frame: np.ndarray) -> tuple[np.ndarray, float]:
        scale = WIDTH / frame.shape[1]
        h = max(1, round(frame.shape[0] * scale))
        grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        small = cv2.resize(grey, (WIDTH, h), interpolation=cv2.INTER_AREA).astype(np.float32)
        return cv2.GaussianBlur(small, (3, 3), 0), scale

    def learn(self, frame: np.ndarray, small: np.ndarray | None = None) -> None:
        small = self._small(frame)[0] if small is None else small
        if self._ref is None or self._ref.shape != small.shape:
            self._ref, self._seen = small, 1
            return
        cv2.accumulateWeighted(small, self._ref, 0.3)
        self._seen += 1

    def changed(self, frame: np.ndarray) -> tuple[np.ndarray, float, np.ndarray]:
        """A mask of the pixels that differ from the empty table, the scale, the small grey."""
        small, scale = self._small(frame)
        diff = small - self._ref
        diff -= float(np.median(diff))  # the whole picture a little lighter or darker
        return (np.abs(diff) > CHANGED).astype(np.uint8), scale, small

    def check(
        self,
        frame: np.ndarray,
        dice: list[DieReading],
        reader: DiceReader,
        detail: np.ndarray | None = None,
    ) -> list[DieReading]:
        """``dice`` with the table's opinion applied, learning the table when it is empty
        (``detail``: the frame at a higher resolution, as ``DiceReader.read`` takes it)."""
        if self._ref is None or not self.ready:
            if not dice:
                self.learn(frame)
            return dice
        mask, scale, small = self.changed(frame)
        if self._share_outside(mask, dice, scale) > STALE:
            self.forget()
            return dice
        kept = [d for d in dice if self._changed_share(mask, d.box, scale) >= SAME]
        extra = self._patches(mask, kept, scale)
        found = kept + (reader.read_boxes(frame, extra, detail) if extra else [])
        if not dice and not extra:
            self.learn(frame, small)
        return reading_order(found)

    @staticmethod
    def _changed_share(mask: np.ndarray, box, scale: float) -> float:
        x0, y0, x1, y1 = (round(v * scale) for v in box)
        part = mask[y0 : max(y1, y0 + 1), x0 : max(x1, x0 + 1)]
        return float(part.mean()) if part.size else 0.0

    @staticmethod
    def _share_outside(mask: np.ndarray, dice, scale: float) -> float:
        rest = mask.copy()
        for d in dice:
            x0, y0, x1, y1 = (round(v * scale) for v in d.box)
            rest[y0:y1, x0:x1] = 0
        return float(rest.mean())

    @staticmethod
    def _patches(mask: np.ndarray, dice: list[DieReading], scale: float) -> list:
        """Die-sized patches that changed and hold no die found already (original pixels)."""
        h, w = mask.shape
        sizes = [max(d.box[2] - d.box[0], d.box[3] - d.box[1]) * scale for d in dice]
        lo, hi = (
            (0.5 * min(sizes), 2.0 * max(sizes)) if sizes else (0.025 * min(h, w), 0.3 * min(h, w))
        )
        closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
        n, _, stats, centres = cv2.connectedComponentsWithStats(closed)
        out = []
        for i in range(1, n):
            x, y, bw, bh, area = stats[i]
            side = max(bw, bh)
            if not lo <= side <= hi or min(bw, bh) < 0.4 * side or area < 0.3 * bw * bh:
                continue  # not die-shaped: a hand, a shadow's edge, a changed light
            cx, cy = centres[i]
            if any(
                abs(cx - (d.box[0] + d.box[2]) * scale / 2) < side
                and abs(cy - (d.box[1] + d.box[3]) * scale / 2) < side
                for d in dice
            ):
                continue  # a die already found (with its shadow)
            out.append(tuple(round(v / scale) for v in (x, y, x + bw, y + bh)))
        return out

"""Settling: turn a stream of per-frame readings into one trusted event per roll.

Fed one ``Frame`` at a time (the dice found in it and how much of the picture
changed since the last frame), the ``Settler``:
- reports nothing while the picture moves (a hand in the frame, dice tumbling);
- once the dice have rested for ``still_frames`` frames, reports the roll once,
  each die's value by majority over those frames;
- reports again only after the dice have moved (a hand passing over dice that
  stay put is not a new roll);
- says "4 of 5 dice seen" instead of reporting when the count is wrong, and
  marks a die it could not read with confidence as unsure rather than guessing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Reading:
    """One die in one frame: where it is, what it shows (None if unreadable), how sure."""

    box: Box
    value: int | str | None
    confidence: float

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2)

    @property
    def size(self) -> float:
        return max(self.box[2] - self.box[0], self.box[3] - self.box[1])


@dataclass(frozen=True)
class Frame:
    readings: tuple[Reading, ...]
    motion: float = 0.0  # share of pixels that changed since the previous frame (0..1)


@dataclass(frozen=True)
class Settled:
    """The dice have stopped: ``values`` in reading order (left to right, top to bottom)."""

    kind: str  # "roll" | "unsure" | "wrong_count"
    values: tuple[int | str | None, ...]
    confidence: float
    boxes: tuple[Box, ...] = ()
    message: str = ""


@dataclass
class Settler:
    expected: int | None = None  # dice the game wants; None accepts any count
    still_frames: int = 5  # frames at rest before the roll is read
    motion_limit: float = 0.01  # above this share of changed pixels the table is moving
    move_tolerance: float = 0.25  # a die moved if its centre shifted by this share of its size
    min_confidence: float = 0.8  # below this a die is unsure
    _rest: list[Frame] = field(default_factory=list)
    _reported: tuple[Reading, ...] | None = None

    @property
    def rested(self) -> bool:
        """The dice have lain still long enough for this rest to be read."""
        return len(self._rest) >= self.still_frames

    def feed(self, frame: Frame) -> Settled | None:
        """The event this frame completes, if any."""
        if frame.motion > self.motion_limit or (
            self._rest and not self._same_place(self._rest[-1].readings, frame.readings)
        ):
            self._rest = [frame] if frame.motion <= self.motion_limit else []
            return None
        if len(self._rest) > self.still_frames:
            # This rest was read already: only its newest frame is still needed (to see the
            # dice move), so dice left on the table for an evening hold no more memory.
            self._rest[-1] = frame
            return None
        self._rest.append(frame)
        if len(self._rest) != self.still_frames:
            return None  # not rested long enough, or this rest was already read
        if self._reported is not None and self._same_place(self._reported, frame.readings):
            return None  # the dice did not move: a hand passed over, not a new roll
        self._reported = frame.readings
        return self._read_rest()

    def _same_place(self, a: tuple[Reading, ...], b: tuple[Reading, ...]) -> bool:
        if len(a) != len(b):
            return False
        left = list(b)
        for r in a:
            limit = self.move_tolerance * max(r.size, 1)
            match = next(
                (
                    o
                    for o in left
                    if abs(o.centre[0] - r.centre[0]) <= limit
                    and abs(o.centre[1] - r.centre[1]) <= limit
                ),
                None,
            )
            if match is None:
                return False
            left.remove(match)
        return True

    def _read_rest(self) -> Settled:
        last = sorted(
            self._rest[-1].readings, key=lambda r: (r.centre[1] // max(r.size, 1), r.centre[0])
        )
        values, confidences = [], []
        for die in last:
            limit = self.move_tolerance * max(die.size, 1)
            votes: Counter = Counter()
            conf: dict = {}
            for f in self._rest:
                for r in f.readings:
                    if (
                        abs(r.centre[0] - die.centre[0]) <= limit
                        and abs(r.centre[1] - die.centre[1]) <= limit
                    ):
                        votes[r.value] += 1
                        conf.setdefault(r.value, []).append(r.confidence)
            value, n = votes.most_common(1)[0]
            c = (n / len(self._rest)) * (sum(conf[value]) / len(conf[value]))
            values.append(value if value is not None and c >= self.min_confidence else None)
            confidences.append(c)
        boxes = tuple(r.box for r in last)
        conf_all = min(confidences, default=1.0)
        if self.expected is not None and len(last) != self.expected:
            return Settled(
                "wrong_count",
                tuple(values),
                conf_all,
                boxes,
                f"{len(last)} of {self.expected} dice seen",
            )
        if None in values:
            unsure = [str(i + 1) for i, v in enumerate(values) if v is None]
            return Settled(
                "unsure",
                tuple(values),
                conf_all,
                boxes,
                f"die {', '.join(unsure)} could not be read with confidence: "
                "confirm the roll on a phone or the table view",
            )
        return Settled("roll", tuple(values), conf_all, boxes)

"""Settling: turn a stream of per-frame readings into one trusted event per roll.

Fed one ``Frame`` at a time (the dice found in it and how much of the picture
changed since the last frame), the ``Settler``:
- reports nothing while the picture moves (a hand in the frame, dice tumbling);
- once the dice have rested for ``still_frames`` frames, reports the roll once:
  the dice seen in most of those frames, each die's value by majority over them (a
  doubtful box that the reader finds in some frames only neither hides the roll nor
  restarts the rest; only a die that leaves its place for a new one does);
- reports again only when a die found in every frame of the rest lies where no die
  lay in the last rest read (a hand passing over dice that stay put is not a new roll,
  nor are dice taken away, nor a doubtful box, nor a die the reader boxes another way);
- says "4 of 5 dice seen" instead of reporting when the count is wrong, and
  marks a die it could not read with confidence as unsure rather than guessing;
- while such a roll waits for a person, reads the dice again in a few more windows of
  frames, and gives the roll as a revision (``revises``) once a window reads it whole,
  every die the waiting roll trusted keeping its value.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from companion.vision.boxes import Box, in_rows


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
    """The dice have stopped: ``values`` in reading order (``in_rows``: rows top to bottom,
    each left to right)."""

    kind: str  # "roll" | "unsure" | "wrong_count"
    values: tuple[int | str | None, ...]
    confidence: float
    boxes: tuple[Box, ...] = ()
    message: str = ""
    revises: bool = False  # a whole reading of the dice of the roll still waiting for a person


@dataclass
class _Track:
    """One place where a die was seen during a rest, and what the frames read there."""

    box: Box  # where it was seen last, so a die creeping to a stop is followed
    seen: int = 0  # frames of the current window that found it (the first is the rest's read)
    boxes: set[Box] = field(default_factory=set)  # every framing it had while it was counted
    votes: Counter = field(default_factory=Counter)
    confidences: dict = field(default_factory=dict)

    @property
    def where(self) -> Reading:
        return Reading(self.box, None, 0.0)


@dataclass
class Settler:
    expected: int | None = None  # dice the game wants; None accepts any count
    still_frames: int = 5  # frames at rest before the roll is read
    motion_limit: float = 0.01  # above this share of changed pixels the table is moving
    move_tolerance: float = 0.25  # a die moved if its centre shifted by this share of its size
    min_confidence: float = 0.8  # below this a die is unsure
    revisions: int = 3  # windows of still_frames read again while a roll waits for a person
    _tracks: list[_Track] = field(default_factory=list)  # every place seen in this rest
    _present: set[int] = field(default_factory=set)  # the tracks the previous frame found
    _frames: int = 0  # still frames in this rest
    _reported: tuple[Reading, ...] | None = None  # every box a die had in the last rest read
    # The roll waiting for a person (an unsure die, a wrong count): how many dice it had,
    # and each die it trusted, as (its boxes, its value); None when no roll waits.
    _awaiting: tuple[int, list[tuple[tuple[Reading, ...], int | str]]] | None = None

    @property
    def rested(self) -> bool:
        """The dice have lain still long enough for this rest to be read."""
        return self._frames >= self.still_frames

    @property
    def done(self) -> bool:
        """This rest was read and no window of it is still to be read: a frame that shows
        the same picture need not be read again."""
        return not self._counting(self._frames + 1)  # past the last window (so rested too)

    def _counting(self, frame: int) -> bool:
        """The rest's ``frame``-th frame is counted: in the first window, or in a window
        read again while a roll waits for a person."""
        limit = self.still_frames * (1 + (self.revisions if self._awaiting is not None else 0))
        return frame <= limit

    def feed(self, frame: Frame) -> Settled | None:
        """The event this frame completes, if any."""
        if frame.motion > self.motion_limit:
            self._restart()
            return None
        readings = frame.readings
        tracks, new = self._match(readings)
        gone = self._present - set(tracks.values())
        if self._frames and new and (gone or self.rested):
            # A die is where no die was in this rest and another left its place (a die
            # moved), or a die came after the rest was read: a new rest begins here.
            self._restart()
            tracks, new = {}, list(range(len(readings)))
        for i in new:
            self._tracks.append(_Track(readings[i].box))
            tracks[i] = len(self._tracks) - 1
        self._present = set(tracks.values())
        self._frames += 1
        for i, t in tracks.items():
            self._tracks[t].box = readings[i].box
        if not self._counting(self._frames):
            return None  # this rest was read: only follow where the dice are
        if self._frames > self.still_frames and (self._frames - 1) % self.still_frames == 0:
            for track in self._tracks:  # a window read again: counted afresh
                track.seen, track.votes, track.confidences = 0, Counter(), {}
        for i, t in tracks.items():
            r, track = readings[i], self._tracks[t]
            track.seen += 1
            track.boxes.add(r.box)
            track.votes[r.value] += 1
            track.confidences.setdefault(r.value, []).append(r.confidence)
        if self._frames == self.still_frames:
            return self._read_rest()
        return self._revise() if self._frames % self.still_frames == 0 else None

    def _restart(self) -> None:
        self._tracks, self._present, self._frames = [], set(), 0

    def _near(self, place: Reading, r: Reading) -> bool:
        limit = self.move_tolerance * max(place.size, 1)
        return (
            abs(r.centre[0] - place.centre[0]) <= limit
            and abs(r.centre[1] - place.centre[1]) <= limit
        )

    def _match(self, readings: tuple[Reading, ...]) -> tuple[dict[int, int], list[int]]:
        """Each reading's track in this rest (nearest first, one reading a track), and the
        readings (by index) at a place no track holds. Only nearness counts here, not
        ``_lay_there``'s overlap: a die still creeping a third of its size a frame must
        keep the rest from being read."""
        places = [t.where for t in self._tracks]
        pairs = sorted(
            (abs(r.centre[0] - p.centre[0]) + abs(r.centre[1] - p.centre[1]), i, j)
            for i, r in enumerate(readings)
            for j, p in enumerate(places)
            if self._near(p, r)
        )
        tracks: dict[int, int] = {}
        taken: set[int] = set()
        for _, i, j in pairs:
            if i not in tracks and j not in taken:
                tracks[i] = j
                taken.add(j)
        return tracks, [i for i in range(len(readings)) if i not in tracks]

    def _lay_there(self, places: tuple[Reading, ...], die: Reading) -> bool:
        """A die of this rest lay at one of ``places``: near it, or overlapping its centre
        (dice cannot overlap, so a die boxed another way is still that die)."""

        def holds(a: Reading, b: Reading) -> bool:
            return a.box[0] <= b.centre[0] <= a.box[2] and a.box[1] <= b.centre[1] <= a.box[3]

        return any(self._near(p, die) or holds(p, die) or holds(die, p) for p in places)

    def _dice(self, frames: int) -> list[_Track]:
        """The tracks found in most of the window's ``frames``, in reading order."""
        found = [t for t in self._tracks if 2 * t.seen > frames]
        return [found[i] for i in in_rows([t.box for t in found])]

    def _values(self, dice: list[_Track], frames: int) -> tuple[list, list[float]]:
        """Each die's value (None if not trusted) and how far it is trusted, over the window."""
        values, confidences = [], []
        for t in dice:
            value, n = t.votes.most_common(1)[0]
            c = (n / frames) * (sum(t.confidences[value]) / len(t.confidences[value]))
            values.append(value if value is not None and c >= self.min_confidence else None)
            confidences.append(c)
        return values, confidences

    @staticmethod
    def _framings(track: _Track) -> tuple[Reading, ...]:
        """Every box a track had, as places a die lay (``_lay_there``)."""
        return tuple(Reading(b, None, 0.0) for b in track.boxes)

    def _places(self) -> tuple[Reading, ...]:
        return tuple(p for t in self._tracks for p in self._framings(t))

    def _read_rest(self) -> Settled | None:
        places = self._places()
        dice = self._dice(self._frames)
        before, self._reported = self._reported, places
        if before is not None and not any(
            t.seen == self._frames and not self._lay_there(before, t.where) for t in dice
        ):
            # No die lies where none lay (one found in only some frames does not count: a
            # doubtful box): a hand passed over, or dice were taken away. If a roll of these
            # dice waits for a person, this rest may read it whole.
            return self._revise() if self._awaiting is not None else None
        values, confidences = self._values(dice, self._frames)
        event = self._event(dice, values, confidences)
        self._awaiting = None
        if event.kind != "roll":  # it waits for a person: keep what it trusted
            pairs = zip(dice, values, strict=True)
            trusted = [(self._framings(t), v) for t, v in pairs if v is not None]
            self._awaiting = (len(dice), trusted)
        return event

    def _revise(self) -> Settled | None:
        """The waiting roll, read whole from this window, or None. Without an expected count
        it must have the waiting roll's (an emptied tray is no revision)."""
        if self._awaiting is None:
            return None
        count, trusted = self._awaiting
        dice = self._dice(self.still_frames)
        values, confidences = self._values(dice, self.still_frames)
        if None in values or len(dice) != (count if self.expected is None else self.expected):
            return None
        for places, value in trusted:
            pairs = zip(dice, values, strict=True)
            if any(self._lay_there(places, t.where) and v != value for t, v in pairs):
                return None  # it contradicts a die the waiting roll trusted
        self._awaiting = None
        self._reported = self._places()
        return Settled(
            "roll",
            tuple(values),
            min(confidences, default=1.0),
            tuple(t.box for t in dice),
            revises=True,
        )

    def _event(self, dice: list[_Track], values: list, confidences: list[float]) -> Settled:
        boxes = tuple(t.box for t in dice)
        conf_all = min(confidences, default=1.0)
        if self.expected is not None and len(dice) != self.expected:
            return Settled(
                "wrong_count",
                tuple(values),
                conf_all,
                boxes,
                f"{len(dice)} of {self.expected} dice seen",
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

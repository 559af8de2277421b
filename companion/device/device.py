"""The device: the camera's rolls (and, on a Pi, the button) feeding the games.

A ``Device`` runs beside the web server. Each settled roll from the ``RollWatcher``
enters the active game as a chance action, ``DiceRolled(values, source="camera",
confidence)`` (or the reroll, when that is what the game allows now). A roll the
camera was unsure of, or with the wrong number of dice, is not entered: it waits
as ``pending`` for a person to confirm or correct it on the table page or a phone, with
the camera's picture of it (``picture``, each die numbered as in the pages' list). If
the camera then reads those dice whole (a revision), the revision is entered in its
place, unless a person has settled it already.

``state`` is what the table page shows: "no camera", "waiting for a roll",
"reading", "needs confirmation", "camera lost", "storage problem" (a roll read but not
saved: the disk is full), or "dice not read" (the camera cannot be used to read dice: a
taught die to teach again, models that will not load), with ``message`` saying more.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from companion.engine.game import DiceRolled
from companion.engine.hub import Hub
from companion.errors import CompanionError, StorageError
from companion.vision.settle import Settled

log = logging.getLogger(__name__)


PICTURE_SIDE = 640  # the longer side of a pending roll's picture, in pixels


def roll_picture(frame, boxes, values) -> bytes:
    """A JPEG of ``frame`` with the roll's dice numbered, at most PICTURE_SIDE px across."""
    from companion.vision.watch import draw_roll

    return _jpeg(draw_roll(frame, boxes, values))


def camera_view(frame, dice) -> tuple[bytes, dict]:
    """What the camera sees, with the dice the reader found in it drawn (value and
    confidence), for aiming the camera: a JPEG, and the frame's size, the dice found and
    their median width in the frame's pixels."""
    from companion.vision.watch import die_width, draw

    h, w = frame.shape[:2]
    figures = {"width": w, "height": h, "dice": len(dice), "die_px": die_width(dice)}
    return _jpeg(draw(frame, dice, phone=True)), figures


def _jpeg(drawn) -> bytes:
    """``drawn`` as a JPEG at most PICTURE_SIDE px across."""
    import cv2  # only with a camera: without one the device never loads OpenCV

    longer = max(drawn.shape[:2])
    if longer > PICTURE_SIDE:
        f = PICTURE_SIDE / longer
        drawn = cv2.resize(drawn, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    _, jpeg = cv2.imencode(".jpg", drawn, [cv2.IMWRITE_JPEG_QUALITY, 80])
    return jpeg.tobytes()


def _named_as_the_game(spec, values) -> tuple:
    """A roll's ``values`` with each taught face's name given as the game's dice ``spec``
    names it (matched without case, or by number: a numbered die taught 1 to 6)."""
    faces = spec.faces if spec is not None else {}
    names = {str(v).lower(): k for k, v in faces.items()}  # taught faces named as the game's
    names.update({str(k): k for k in faces})  # or by number: a numbered die taught 1 to 6
    return tuple(names.get(str(v).lower(), v) if isinstance(v, str) else v for v in values)


def _roll_text(spec, values: tuple) -> str:
    """A roll read, as the table page says it: its values, and the game's names for them
    where its dice ``spec`` names its faces otherwise ("1 6 — Scavengers, Scientists"): a
    player at a table whose dice name their faces reads the names, not numbers."""
    shown = " ".join(map(str, values))
    faces = spec.faces if spec is not None else {}
    names = [str(faces.get(v, v)) for v in values]
    if names == [str(v) for v in values]:
        return shown
    return f"{shown} — {', '.join(n.capitalize() for n in names)}"


class Device:
    def __init__(self, hub: Hub, watcher=None, problem: str = ""):
        """``problem``: why there is no ``watcher`` although a camera was asked for."""
        self.hub, self.watcher = hub, watcher
        # A standing fault's explanation, kept in the message whatever the button does.
        self.standing = ""
        if problem:
            said = problem if problem.endswith(".") else f"{problem}."
            self.standing = f"{said} Enter rolls by hand meanwhile."
            self.state, self.message = "dice not read", self.standing
        else:
            self.state = "no camera" if watcher is None else "waiting for a roll"
            self.message = "" if watcher is not None else "enter rolls by hand"
        self.pending: dict | None = None
        # the camera's picture of the pending roll (JPEG), each die numbered as in the list
        # a person confirms, so that "die 3" can be found on the table
        self.picture: bytes | None = None
        self._pictures = 0  # pictures drawn: a pending roll names its own, for the pages' caches
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.listeners: list[Callable[[Device], None]] = []  # called on every change
        self.accepted: list[Callable[[], None]] = []  # called when a camera roll is entered

    # -- what the pages see ------------------------------------------------------------
    def to_json(self) -> dict:
        return {"state": self.state, "message": self.message, "pending": self.pending}

    def _set(self, state: str, message: str = "", pending: Any = ...) -> None:
        if pending is not ...:
            self.pending = pending
            if pending is None:
                self.picture = None
        if (state, message) == (self.state, self.message) and pending is ...:
            return
        self.state, self.message = state, message
        # a message the pages show in brackets ("(last roll read: ...)") is not bracketed twice
        said = message if message.startswith("(") and message.endswith(")") else f"({message})"
        log.info("device: %s%s", state, f" {said}" if message else "")
        self.hub.announce_device(self.to_json())
        for fn in self.listeners:
            fn(self)

    def game_moved(self, game_id: str) -> None:
        """Any accepted roll settles what was pending: the game no longer wants the dice
        the pending roll was read for."""
        if self.pending is not None and self.pending.get("game_id") == game_id:
            s = self.hub.session(game_id)
            spec = s.dice()
            if spec is None or spec.purpose != self.pending.get("purpose"):
                self._set(
                    "waiting for a roll" if self.watcher else "no camera",
                    "" if self.watcher else "enter rolls by hand",
                    pending=None,
                )

    def other_game(self, game_id: str) -> None:
        """The camera's rolls go to another game now: what was said of the last one (its
        last roll, or that it was over) is not said of this one."""
        if self.state == "waiting for a roll" and self.message and not self.standing:
            self._set("waiting for a roll", "")

    # -- rolls -------------------------------------------------------------------------
    def on_settled(self, event: Settled) -> None:
        game_id = self.hub.active_game()
        if game_id is None:
            self._set("waiting for a roll", "no game is open: start one in the lobby")
            return
        if event.revises and not (
            self.state == "needs confirmation"
            and self.pending is not None
            and self.pending.get("game_id") == game_id
        ):
            return  # the roll it revises was settled by a person already, or never waited
        s = self.hub.session(game_id)
        spec = s.dice()
        if spec is None and not event.values:
            return  # the empty table at rest: no roll, and nothing to say of one
        if event.kind != "roll" and spec is not None:
            event = self._one_colour(spec, event)
        values = _named_as_the_game(spec, event.values)
        if event.kind == "roll":
            self._record_roll(game_id, s, spec, values, event)
            return
        if spec is None:
            return  # no roll wanted: nothing to confirm
        self._set(
            "needs confirmation",
            event.message,
            pending=self._pending(game_id, values, event),
        )

    def _one_colour(self, spec, event: Settled) -> Settled:
        """Where the game wants dice of one colour (``spec.dice`` all "white" or all "black")
        and more dice lie on the table (the other colour's, thrown earlier in the turn), the
        roll is the dice of that colour (``die_tones``), if they are as many as wanted and
        all read; otherwise ``event`` as it was, for a person to confirm."""
        from companion.vision.tone import TONES, die_tones

        wanted = set(spec.dice)
        frame = getattr(self.watcher, "frame", None)
        if (
            len(wanted) != 1
            or not wanted <= set(TONES)
            or frame is None
            or len(event.boxes) != len(event.values)
        ):
            return event
        colour = wanted.pop()
        tones = die_tones(frame, event.boxes)
        keep = [i for i, tone in enumerate(tones) if tone == colour]
        values = tuple(event.values[i] for i in keep)
        if len(keep) != spec.count or None in values:
            return event
        boxes = tuple(event.boxes[i] for i in keep)
        return replace(event, kind="roll", values=values, boxes=boxes, message="")

    def _record_roll(self, game_id: str, s, spec, values: tuple, event: Settled) -> None:
        """Enter a settled roll read with ``values`` into the game's session ``s``, which
        wanted the dice ``spec`` (taken before the game moves on, so the roll is named as
        what it was for), or say why not and leave it for a person to confirm."""
        if spec is None:
            self._set(
                # (dice lying on the table when the device starts are seen at rest too:
                # they need not have moved)
                "waiting for a roll",
                "dice seen at rest, but the game is over: start a new game in the lobby"
                if s.outcome() is not None
                else "dice seen at rest, but the game is not waiting for a roll",
            )
            return
        if spec.reroll and Counter(values) == Counter(spec.showing):
            # Dice nudged or gathered while players mark: the roll again, not a reroll, which
            # would use up the turn's one reroll unseen (three dice rerolled show their face
            # again once in 216: a person enters that reroll)
            self._set(
                "waiting for a roll",
                "dice seen at rest showing the roll's faces again: not taken as a reroll "
                "(a reroll that came up the same is entered by hand)",
            )
            return
        try:
            # the game makes the roll its own action (a reroll, say): Session.act
            s.act(DiceRolled(tuple(values), source="camera", confidence=round(event.confidence, 3)))
        except StorageError as exc:  # nothing was saved: the roll waits, the red LED is lit
            self._set(
                "storage problem",
                f"the camera read {_roll_text(spec, values)} but could not save it "
                f"({exc.message}). "
                "Free some space, then confirm the roll.",
                pending=self._pending(game_id, values, event),
            )
            return
        except CompanionError as exc:
            self._set(
                "needs confirmation",
                f"the camera read {_roll_text(spec, values)}: {exc.message}",
                pending=self._pending(game_id, values, event),
            )
            return
        read = _roll_text(spec, values)
        again = " on a second look" if event.revises else ""
        self._set("waiting for a roll", f"(last roll read{again}: {read})", pending=None)
        for fn in self.accepted:
            fn()

    def view(self) -> tuple[bytes, dict] | None:
        """The camera's latest frame with what the reader found in it (``camera_view``), or
        None when there is no frame (no camera, or the camera lost)."""
        frame = getattr(self.watcher, "frame", None)
        if frame is None:
            return None
        return camera_view(frame, list(getattr(self.watcher, "dice", [])))

    def _pending(self, game_id: str, values: tuple, event: Settled) -> dict:
        """The roll left for a person, with the camera's picture of it when there is one."""
        spec = self.hub.session(game_id).dice()
        pending = {
            "game_id": game_id,
            "values": list(values),
            "purpose": None if spec is None else spec.purpose,
        }
        frame = getattr(self.watcher, "frame", None)
        if frame is not None and len(event.boxes) == len(event.values):
            self.picture = roll_picture(frame, event.boxes, event.values)
            self._pictures += 1
            pending["picture"] = self._pictures
        else:
            self.picture = None
        return pending

    # -- the button --------------------------------------------------------------------
    def press(self) -> None:
        """The button: what the active game says it means now (``Game.button``), as the
        table page's button."""

        def do(s) -> str:
            button = s.game.button(s.state)
            if button is None:
                return "it does nothing now"
            s.act(button.action)
            return button.label.lower()

        self._button(do, None)

    def hold(self) -> None:
        """The button held: undo the last action of the active game."""
        self._button(lambda s: s.undo(), "undid the last action")

    def _button(self, do: Callable, done: str | None) -> None:
        """Do ``do(session)`` to the active game; say ``done``, or what ``do`` returned."""
        game_id = self.hub.active_game()
        if game_id is None:
            said = "no game is open; start one in the lobby"
        else:
            try:
                result = do(self.hub.session(game_id))
                said = done or result
            except CompanionError as exc:
                said = exc.message
        self._set(
            self.state, f"{self.standing} (button: {said})" if self.standing else f"button: {said}"
        )

    # -- the loop ----------------------------------------------------------------------
    def step(self) -> None:
        """One camera frame (the loop calls this; tests call it directly)."""
        event = self.watcher.step()
        if self.watcher.status == "camera lost":
            problem = self.watcher.camera.problem or "the camera gives no frames"
            self._set("camera lost", f"{problem} Dice can be entered by hand meanwhile.")
            return
        if self.state == "camera lost" or (
            self.state == "reading" and self.watcher.status != "reading"
        ):
            self._set("waiting for a roll")
        if self.watcher.status == "reading" and self.state != "needs confirmation":
            self._set("reading")
        if event is not None:
            self.on_settled(event)

    def start(self) -> None:
        if self.watcher is None:
            return

        def loop():
            while not self._stop.is_set():
                try:
                    self.step()
                except Exception:  # keep the device running whatever one frame did
                    log.exception("device: a frame failed")
                    self._stop.wait(1.0)
                if self.watcher.status == "camera lost":
                    self._stop.wait(0.5)

        self._thread = threading.Thread(target=loop, name="companion-camera", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self.watcher is not None:
            self.watcher.camera.close()

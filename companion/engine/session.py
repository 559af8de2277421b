"""A game session: an append-only log in the event store, replayed through a reducer.

Every action is validated by the game's ``apply`` before it is appended; the
append is committed before ``act`` returns. Undo and redo are entries in the
same log (they name the entry they take back or restore), so nothing recorded
is ever rewritten, and the state is always ``replay(log)``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from companion.engine.game import (
    DiceRolled,
    Game,
    ScoreRow,
    action_from_json,
    action_to_json,
    check_options,
    get_game,
)
from companion.engine.store import Entry, EventStore
from companion.errors import IllegalAction, NothingToUndo, StaleAction

Listener = Callable[["Session"], None]


def effective_actions(entries: Iterable[Entry]) -> list[Entry]:
    """The action entries still in force once undo and redo entries are applied."""
    entries = list(entries)
    undone: set[int] = set()
    for e in entries:
        if e.kind == "undo":
            undone.add(e.payload["target"])
        elif e.kind == "redo":
            undone.discard(e.payload["target"])
    return [e for e in entries if e.kind == "action" and e.seq not in undone]


def parse_action(game: Game, payload: dict) -> Any:
    """The action object stored in a log payload."""
    if payload.get("type") == DiceRolled.type:
        values = payload.get("values")
        if not isinstance(values, list | tuple) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in values
        ):
            raise IllegalAction(
                f"a roll needs 'values', a list of whole numbers; got {values!r}",
                code="roll/malformed",
            )
        confidence = payload.get("confidence", 1.0)
        if not isinstance(confidence, int | float) or not 0 <= confidence <= 1:
            raise IllegalAction(
                f"roll confidence must be between 0 and 1; got {confidence!r}",
                code="roll/malformed",
            )
        return DiceRolled(tuple(values), str(payload.get("source", "manual")), float(confidence))
    return action_from_json(game, payload)


def states(game: Game, players: int, options: dict, entries: Iterable[Entry]) -> Iterator[Any]:
    """The setup state, then the state after each action in force, in order."""
    state = game.setup(players, options)
    yield state
    for e in effective_actions(entries):
        state = game.apply(state, parse_action(game, e.payload))
        yield state


def replay(game: Game, players: int, options: dict, entries: Iterable[Entry]) -> Any:
    """The state a log describes."""
    state = None
    for state in states(game, players, options, entries):  # noqa: B007
        pass
    return state


class Session:
    """One game being played: its log, its current state, and who is listening."""

    def __init__(self, store: EventStore, game_id: str):
        self.store = store
        self.game_id = game_id
        record = store.game(game_id)
        self.game: Game = get_game(record.game)
        self.players = record.players
        self.options = record.options
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self.reload()

    @classmethod
    def create(
        cls, store: EventStore, game: str, players: int, options: dict | None = None
    ) -> Session:
        """Set up a new game (options are validated before anything is stored)."""
        options = dict(options or {})
        rules = get_game(game)
        check_options(rules, players, options)  # raises on bad setup; stores nothing
        rules.setup(players, options)
        return cls(store, store.create_game(game, players, options))

    def __repr__(self) -> str:
        return f"<Session {self.game_id} {self.game.name} seq={self.seq}>"

    # -- reading -----------------------------------------------------------------
    def reload(self) -> None:
        """Rebuild the state from the stored log."""
        with self._lock:
            self.entries = self.store.entries(self.game_id)
            self.state = replay(self.game, self.players, self.options, self.entries)
            self.finished = self.game.outcome(self.state) is not None
            self.finished_changed = False  # by the last change: the game ended, or its end undone

    @property
    def seq(self) -> int:
        """The number of the last entry in the log (0 when empty): the state's id."""
        return self.entries[-1].seq if self.entries else 0

    def score_rows(self) -> list[ScoreRow]:
        return self.game.score_rows(self.state)

    def outcome(self):
        return self.game.outcome(self.state)

    def dice(self):
        return self.game.dice(self.state)

    # -- listeners ---------------------------------------------------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(session)`` after every change; returns an unsubscribe function."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def _changed(self) -> None:
        finished = self.game.outcome(self.state) is not None
        self.finished_changed, self.finished = finished != self.finished, finished
        self.store.set_finished(self.game_id, finished)
        for listener in list(self._listeners):
            listener(self)

    # -- writing -----------------------------------------------------------------
    def _check_head(self, expected_seq: int | None) -> None:
        if expected_seq is not None and expected_seq != self.seq:
            raise StaleAction(
                f"this action was made against entry {expected_seq}, but the game is at "
                f"entry {self.seq}; reload and try again"
            )

    def act(self, action: Any, *, expected_seq: int | None = None) -> Any:
        """Validate ``action`` (an action object or its JSON), append it, return the new state."""
        with self._lock:
            self._check_head(expected_seq)
            if isinstance(action, dict):
                action = parse_action(self.game, action)
            if isinstance(action, DiceRolled):  # a roll read: the game says what it is for
                action = self.game.roll_action(self.state, action)
            new_state = self.game.apply(self.state, action)  # raises; nothing stored
            payload = action_to_json(action)
            entry = self._append("action", getattr(action, "seat", None), payload)
            self.entries.append(entry)
            self.state = new_state
        self._changed()
        return self.state

    def _append(self, kind: str, seat: int | None, payload: dict) -> Entry:
        """Store the next entry. If another writer (a second process on the same database)
        took its place first, the log is read again before StaleAction is raised, so the
        next request acts on the game as it now is, not on this session's old copy."""
        try:
            return self.store.append(self.game_id, self.seq + 1, kind, seat, payload)
        except StaleAction:
            self.reload()
            raise

    def last_action(self, seat: int | None = None) -> Entry | None:
        """The action an undo (by ``seat``, or by the table) would take back, if any."""
        for e in reversed(effective_actions(self.entries)):
            if seat is None or e.seat == seat:
                return e
        return None

    def _undo_target(self, seat: int | None) -> Entry:
        target = self.last_action(seat)
        if target is None:
            who = "the table" if seat is None else f"seat {seat + 1}"
            raise NothingToUndo(f"nothing to undo for {who}")
        return target

    def _redo_target(self, seat: int | None) -> int:
        undone = {e.seq for e in self.entries if e.kind == "action"} - {
            e.seq for e in effective_actions(self.entries)
        }
        for e in reversed(self.entries):
            if e.seat != seat and seat is not None:
                continue
            if e.kind == "action":
                break  # a new action since the undo: the redo chain is gone
            if e.kind == "undo" and e.payload["target"] in undone:
                return e.payload["target"]
        who = "the table" if seat is None else f"seat {seat + 1}"
        raise NothingToUndo(f"nothing to redo for {who}")

    def _append_meta(self, kind: str, seat: int | None, target: int) -> Any:
        trial = [*self.entries, Entry(self.seq + 1, kind, seat, {"target": target}, 0.0)]
        try:
            new_state = replay(self.game, self.players, self.options, trial)
        except IllegalAction as exc:
            raise IllegalAction(
                f"cannot {kind} entry {target}: later actions depend on it ({exc.message})",
                code=f"action/{kind}_blocked",
            ) from exc
        entry = self._append(kind, seat, {"target": target})
        self.entries.append(entry)
        self.state = new_state
        return new_state

    def undo(self, seat: int | None = None, *, expected_seq: int | None = None) -> Any:
        """Take back the last action in force (of ``seat``, if given)."""
        with self._lock:
            self._check_head(expected_seq)
            target = self._undo_target(seat)
            self._append_meta("undo", seat, target.seq)
        self._changed()
        return self.state

    def redo(self, seat: int | None = None, *, expected_seq: int | None = None) -> Any:
        """Restore the action most recently undone (by ``seat``, if given)."""
        with self._lock:
            self._check_head(expected_seq)
            target = self._redo_target(seat)
            self._append_meta("redo", seat, target)
        self._changed()
        return self.state

    def history(self) -> list[dict]:
        """The log as JSON-ready rows, for export."""
        return [
            {
                "seq": e.seq,
                "kind": e.kind,
                "seat": e.seat,
                "payload": e.payload,
                "created": e.created,
            }
            for e in self.entries
        ]

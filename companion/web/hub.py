"""The hub: open sessions by game code, and the queues that carry changes to the pages."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator

from companion.engine.session import Session
from companion.engine.store import EventStore


class Hub:
    """Keeps one Session per game and tells every listening page when it changes."""

    def __init__(self, store: EventStore):
        self.store = store
        self._sessions: dict[str, Session] = {}
        self._listeners: dict[str, list[queue.Queue]] = {}
        self._lock = threading.Lock()
        self.status = "ready"  # what the device is doing, for the table page

    def session(self, game_id: str) -> Session:
        """The open session for ``game_id`` (UnknownGame if there is none)."""
        with self._lock:
            s = self._sessions.get(game_id)
            if s is None:
                s = Session(self.store, game_id)
                s.subscribe(self._changed)
                self._sessions[game_id] = s
            return s

    def create(self, game: str, players: int, options: dict) -> Session:
        s = Session.create(self.store, game, players, options)
        with self._lock:
            s.subscribe(self._changed)
            self._sessions[s.game_id] = s
        self._broadcast("*", {"kind": "games"})
        return s

    def forget(self, game_id: str) -> None:
        with self._lock:
            self._sessions.pop(game_id, None)
        self._broadcast(game_id, {"kind": "deleted"})
        self._broadcast("*", {"kind": "games"})

    # -- live updates ------------------------------------------------------------
    def _changed(self, session: Session) -> None:
        self._broadcast(session.game_id, {"kind": "state", "seq": session.seq})

    def _broadcast(self, game_id: str, message: dict) -> None:
        with self._lock:
            targets = list(self._listeners.get(game_id, ()))
        for q in targets:
            q.put(message)

    def announce(self, game_id: str, message: dict) -> None:
        """Send ``message`` to every page watching ``game_id`` ("*" for the lobby)."""
        self._broadcast(game_id, message)

    def listen(self, game_id: str, heartbeat: float = 15.0) -> Iterator[dict | None]:
        """Messages for ``game_id`` as they come; None every ``heartbeat`` seconds of quiet."""
        q: queue.Queue = queue.Queue()
        with self._lock:
            self._listeners.setdefault(game_id, []).append(q)
        try:
            while True:
                try:
                    yield q.get(timeout=heartbeat)
                except queue.Empty:
                    yield None
        finally:
            with self._lock:
                self._listeners[game_id].remove(q)

"""The hub: the sessions open on this device by game code, the game the camera and the button
feed (the active game), and the queues that carry each change to whoever listens (the live
pages). The web side serves from it; the device feeds it; neither knows the other."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator

from companion.engine.session import Session
from companion.engine.store import EventStore

# Live pages held open at once: a table of 12 phones, a table screen, and the stale tabs and
# sleeping phones a long evening leaves behind. Each holds one of the server's threads
# (serve runs 64), and a phone that sleeps or reloads can leave its old stream open with no
# one reading it, until TCP gives up on it. With every thread held so, nothing was answered:
# with 40 streams open a request had no answer in 10 s. Past this many, the oldest stream is
# ended for the new one, told to wait EVICTED_RETRY before it reconnects: with 30 pages and
# room for 24, pages evicted each other in a loop (126 evictions in 20 s) when each came back
# within a second.
MAX_STREAMS = 48
EVICTED_RETRY = 30.0  # s
_END = object()  # put in a stream's queue: that stream ends
EVICTED = {"kind": "evicted", "retry": EVICTED_RETRY}  # the last message of a stream ended


class Hub:
    """Keeps one Session per game and tells every listening page when it changes."""

    def __init__(self, store: EventStore, max_streams: int = MAX_STREAMS):
        self.store = store
        self.max_streams = max_streams
        self._sessions: dict[str, Session] = {}
        self._streams: list[tuple[str, queue.Queue]] = []  # (game, queue), oldest first
        self._lock = threading.Lock()
        self._closed = False  # serve is stopping: a stream opened now ends at once
        self.device = None  # the companion.device.device.Device feeding rolls, if one runs
        self.on_action: list = []  # callables(game_id) after every change to a game
        self._active: str | None = None
        self.on_active: list = []  # callables(game_id) when the camera's game changes

    def attach(self, device):
        """``device`` feeds this hub (the camera's rolls, the button): the pages show its
        state, and it hears of every change to a game and of the active game moving.
        Returns it."""
        self.device = device
        self.on_action.append(device.game_moved)
        self.on_active.append(device.other_game)
        return device

    def active_game(self) -> str | None:
        """The game the camera's rolls go to: the last one played or opened, else the newest
        unfinished one."""
        if self._active is not None:
            return self._active
        for record in self.store.games():
            if not record.finished:
                return record.game_id
        return None

    def next_game(self, game_id: str) -> str | None:
        """The newest game in play made after ``game_id`` at this device, or None: where the
        players of a finished game go on (one device, one table)."""
        newest = None
        for record in self.store.games():  # the last made first
            if record.game_id == game_id:
                return newest
            if newest is None and not record.finished:
                newest = record.game_id
        return None

    def set_active(self, game_id: str) -> None:
        """The camera's rolls (and the button) go to ``game_id`` from now."""
        moved, self._active = game_id != self._active, game_id
        if moved:
            for fn in self.on_active:
                fn(game_id)

    def device_json(self) -> dict:
        if self.device is None:
            return {"state": "no camera", "message": "enter rolls by hand", "pending": None}
        return self.device.to_json()

    def announce_device(self, device: dict) -> None:
        """Tell every page what the device is doing now."""
        with self._lock:
            games = {game_id for game_id, _ in self._streams}
        for game_id in games:
            self._broadcast(game_id, {"kind": "device", "device": device})

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
        self.set_active(s.game_id)
        self._broadcast("*", {"kind": "games"})
        # the pages of finished games can offer it as the next game (api's "next")
        with self._lock:
            watched = {game_id for game_id, _ in self._streams}
        for record in self.store.games():
            if record.finished and record.game_id in watched:
                self._broadcast(record.game_id, {"kind": "next"})
        return s

    def forget(self, game_id: str) -> None:
        with self._lock:
            self._sessions.pop(game_id, None)
            if self._active == game_id:
                self._active = None
        self._broadcast(game_id, {"kind": "deleted"})
        self._broadcast("*", {"kind": "games"})

    # -- live updates ------------------------------------------------------------
    def _changed(self, session: Session) -> None:
        self.set_active(session.game_id)
        self._broadcast(session.game_id, {"kind": "state", "seq": session.seq})
        # the lobby lists games in play apart from the finished: tell it when a game ends, or
        # its end is taken back
        if session.finished_changed:
            self._broadcast("*", {"kind": "games"})
        for fn in self.on_action:
            fn(session.game_id)

    def _broadcast(self, game_id: str, message: dict) -> None:
        with self._lock:
            targets = [q for listened, q in self._streams if listened == game_id]
        for q in targets:
            q.put(message)

    def announce(self, game_id: str, message: dict) -> None:
        """Send ``message`` to every page watching ``game_id`` ("*": the lobby's pages)."""
        self._broadcast(game_id, message)

    def close(self) -> None:
        """End every live stream, so that the server's threads are free to stop: each would
        otherwise wait out its heartbeat, and waitress gives up on them only after 5 s. A
        stream that starts listening afterwards ends at once: a page's request is taken
        before its stream listens, and serve may stop in between."""
        with self._lock:
            self._closed = True
            streams, self._streams = self._streams, []
        for _, q in streams:
            q.put(_END)

    def listen(self, game_id: str, heartbeat: float = 15.0) -> Iterator[dict | None]:
        """Messages for ``game_id`` as they come; None every ``heartbeat`` seconds of quiet,
        and a None at once when the stream starts listening: a page's stream sends nothing
        before it, so that the page, which fetches the game when its stream opens, misses no
        change made between that fetch and the listening."""
        q: queue.Queue = queue.Queue()
        with self._lock:
            if self._closed:
                return
            while len(self._streams) >= self.max_streams:
                self._streams.pop(0)[1].put(EVICTED)
            self._streams.append((game_id, q))
        try:
            yield None
            while True:
                try:
                    message = q.get(timeout=heartbeat)
                except queue.Empty:
                    message = None
                if message is _END:
                    return
                yield message
                if message is EVICTED:
                    return
        finally:
            with self._lock:
                if (game_id, q) in self._streams:  # not if it was ended for a newer one
                    self._streams.remove((game_id, q))

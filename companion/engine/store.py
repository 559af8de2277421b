"""The event store: games and their append-only logs in one SQLite file.

Small and boring on purpose: plain ``sqlite3``, a packaged schema, WAL and
``synchronous=FULL`` for file databases (an acknowledged action survives a power
cut), a connection per thread, and ``(game_id, seq)`` as the primary key so two
writers racing for the same slot collide instead of corrupting the log.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from companion.errors import StaleAction, StorageError, UnknownGame

# Game codes are typed on phones: no 0/O, 1/I/L.
_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


@dataclass(frozen=True)
class Entry:
    """One row of a game's log."""

    seq: int
    kind: str  # "action" | "undo" | "redo"
    seat: int | None
    payload: dict
    created: float


@dataclass(frozen=True)
class GameRecord:
    """One game's fixed setup."""

    game_id: str
    game: str
    players: int
    options: dict
    created: float
    finished: bool


def not_a_database(exc: BaseException | None) -> bool:
    """Whether SQLite said the file is not a database it can read: some other file, or one
    damaged (cut short, overwritten)."""
    return isinstance(exc, sqlite3.DatabaseError) and any(
        said in str(exc) for said in ("file is not a database", "disk image is malformed")
    )


def set_aside(path: str | Path) -> str:
    """What to do about a games database SQLite cannot read (serve's error, doctor's fix)."""
    return (
        f"move it aside (mv {path} {path}.bad) to start with no games, or set [storage] "
        "data_dir to another folder"
    )


class EventStore:
    """Games and their logs in one SQLite database (a file path, or ``":memory:"``)."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        self._local = threading.local()
        self._memory_conn: sqlite3.Connection | None = None
        if self.path != ":memory:":
            self._make_folder(Path(self.path))
        schema = resources.files("companion.engine").joinpath("schema.sql").read_text()
        try:
            with self._guard("create the schema"):
                self._conn().executescript(schema)
        except StorageError as exc:
            if not_a_database(exc.__cause__):
                raise StorageError(
                    f"{self.path} is not a games database SQLite can read (damaged, or some "
                    f"other file): {set_aside(self.path)}; nothing was changed in it",
                    code="storage/not-a-database",
                ) from exc.__cause__
            raise

    def __repr__(self) -> str:
        return f"EventStore({self.path!r})"

    @staticmethod
    def _make_folder(path: Path) -> None:
        """The database's folder, made if need be; a file in the way, or a place that cannot
        be written, is named with what to do."""
        fix = "set [storage] data_dir (or --data-dir) to a folder the companion can write"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise StorageError(
                f"cannot keep the games in {path.parent}: it is a file, not a folder; {fix}"
            ) from None
        except OSError as exc:
            raise StorageError(
                f"cannot make the folder {path.parent} for the games ({exc.strerror}); {fix}"
            ) from None
        if path.is_dir():
            raise StorageError(f"cannot keep the games in {path}: it is a folder; {fix}")

    # -- connections -------------------------------------------------------------
    def _conn(self) -> sqlite3.Connection:
        if self.path == ":memory:":
            # One shared connection: a second one would see a different database.
            if self._memory_conn is None:
                self._memory_conn = sqlite3.connect(":memory:", check_same_thread=False)
            return self._memory_conn
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=10)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            self._local.conn = conn
        return conn

    def close(self) -> None:
        """Close this thread's connection."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None
        if self._memory_conn is not None:
            self._memory_conn.close()
            self._memory_conn = None

    class _Guard:
        def __init__(self, what: str):
            self.what = what

        def __enter__(self):
            return self

        def __exit__(self, exc_type, exc, tb):
            if (
                exc_type is not None
                and issubclass(exc_type, sqlite3.Error)
                and not (issubclass(exc_type, sqlite3.IntegrityError))
            ):
                raise StorageError(f"could not {self.what}: {exc}") from exc
            return False

    def _guard(self, what: str) -> _Guard:
        return self._Guard(what)

    # -- games -------------------------------------------------------------------
    def create_game(self, game: str, players: int, options: dict[str, Any]) -> str:
        """Record a new game's setup and return its code."""
        conn = self._conn()
        for _ in range(20):
            game_id = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(5))
            try:
                with self._guard("record the new game"), conn:
                    conn.execute(
                        "INSERT INTO games (game_id, game, players, options, created)"
                        " VALUES (?, ?, ?, ?, ?)",
                        (game_id, game, players, json.dumps(options, sort_keys=True), time.time()),
                    )
                return game_id
            except sqlite3.IntegrityError:
                continue
        raise StorageError("could not find a free game code after 20 tries")

    def game(self, game_id: str) -> GameRecord:
        """The setup of game ``game_id``."""
        with self._guard(f"read game {game_id}"):
            row = (
                self._conn()
                .execute(
                    "SELECT game_id, game, players, options, created, finished"
                    " FROM games WHERE game_id = ?",
                    (game_id,),
                )
                .fetchone()
            )
        if row is None:
            raise UnknownGame(f"no game with code {game_id!r} on this device")
        return GameRecord(row[0], row[1], row[2], json.loads(row[3]), row[4], bool(row[5]))

    def games(self) -> list[GameRecord]:
        """Every game, the last made first (not by its clock time: see below)."""
        with self._guard("list games"):
            rows = (
                self._conn()
                .execute(
                    "SELECT game_id, game, players, options, created, finished"
                    " FROM games ORDER BY rowid DESC"  # as made: a Pi's clock can be set back
                )
                .fetchall()
            )
        return [GameRecord(r[0], r[1], r[2], json.loads(r[3]), r[4], bool(r[5])) for r in rows]

    def set_finished(self, game_id: str, finished: bool) -> None:
        """Mark a game finished (an index for the lobby; the log stays the truth)."""
        with self._guard(f"update game {game_id}"), self._conn() as conn:
            conn.execute(
                "UPDATE games SET finished = ? WHERE game_id = ?", (int(finished), game_id)
            )

    def delete_game(self, game_id: str) -> None:
        """Remove a game and its log."""
        with self._guard(f"delete game {game_id}"), self._conn() as conn:
            conn.execute("DELETE FROM events WHERE game_id = ?", (game_id,))
            conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            conn.execute("DELETE FROM games WHERE game_id = ?", (game_id,))

    # -- settings ----------------------------------------------------------------
    def setting(self, key: str, default: str) -> str:
        """The setting ``key``, stored as ``default`` the first time it is asked for (of two
        processes asking at once, the first to store it wins, and both get its value)."""
        with self._guard(f"keep the setting {key}"), self._conn() as conn:
            conn.execute(
                "INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)", (key, default)
            )
            return conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()[0]

    # -- seats -------------------------------------------------------------------
    def seats(self, game_id: str) -> dict[int, tuple[str, str]]:
        """seat -> (name, token) for every claimed seat of ``game_id``."""
        with self._guard(f"read the seats of game {game_id}"):
            rows = (
                self._conn()
                .execute("SELECT seat, name, token FROM seats WHERE game_id = ?", (game_id,))
                .fetchall()
            )
        return {r[0]: (r[1], r[2]) for r in rows}

    def claim_seat(
        self, game_id: str, seat: int, name: str, token: str, *, replace: bool = True
    ) -> None:
        """Give ``seat`` to ``name`` with ``token``, replacing any earlier claim; with
        ``replace`` False, StaleAction if the seat is taken (by a phone that got there first,
        between a look at the seats and this claim)."""
        verb = "INSERT OR REPLACE" if replace else "INSERT"
        try:
            with self._guard(f"claim seat {seat} of game {game_id}"), self._conn() as conn:
                conn.execute(
                    f"{verb} INTO seats (game_id, seat, name, token) VALUES (?, ?, ?, ?)",
                    (game_id, seat, name, token),
                )
        except sqlite3.IntegrityError:
            taken = self.seats(game_id)[seat][0]
            raise StaleAction(
                f"seat {seat + 1} was just taken by {taken}; pick another seat, or the host "
                "can give you this one with the PIN",
                code="seat/taken",
            ) from None

    # -- the log -----------------------------------------------------------------
    def append(self, game_id: str, seq: int, kind: str, seat: int | None, payload: dict) -> Entry:
        """Append one entry at ``seq``; committed before this returns.

        Raises StaleAction if another writer took ``seq`` first.
        """
        entry = Entry(seq, kind, seat, payload, time.time())
        try:
            with self._guard(f"append to game {game_id}"), self._conn() as conn:
                conn.execute(
                    "INSERT INTO events (game_id, seq, kind, seat, payload, created)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, seq, kind, seat, json.dumps(payload, sort_keys=True), entry.created),
                )
        except sqlite3.IntegrityError as exc:
            raise StaleAction(
                f"entry {seq} of game {game_id} was written by someone else first; "
                "reload and try again"
            ) from exc
        return entry

    def entries(self, game_id: str) -> list[Entry]:
        """The whole log of ``game_id``, in order."""
        with self._guard(f"read the log of game {game_id}"):
            rows = (
                self._conn()
                .execute(
                    "SELECT seq, kind, seat, payload, created FROM events"
                    " WHERE game_id = ? ORDER BY seq",
                    (game_id,),
                )
                .fetchall()
            )
        return [Entry(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in rows]

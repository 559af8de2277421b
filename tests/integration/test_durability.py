"""A game survives a killed process and a full disk, and can be resumed."""

import json
import signal
import sqlite3
import subprocess
import sys

import pytest

from companion.engine.session import Session, replay
from companion.engine.store import EventStore
from companion.errors import StorageError
from companion.games.first_island.state import Mark
from tests.helpers import roll

pytestmark = pytest.mark.integration

ACTIONS = [
    {"type": "dice_rolled", "values": [1, 2, 3, 3, 5]},
    {"type": "mark", "seat": 0, "hex": [0, 0], "picks": [1, 2], "axis": 0},
    {"type": "mark", "seat": 1, "hex": [0, 0], "picks": [1, 2], "axis": 1},
    {"type": "mark", "seat": 0, "hex": [1, 0], "picks": [3, 4]},
    {"type": "mark", "seat": 1, "hex": [1, 0], "picks": [3, 4]},
    {"type": "advance"},
    {"type": "dice_rolled", "values": [6, 6, 5, 4, 2]},
]


def test_the_file_store_uses_wal_and_full_sync(file_store):
    conn = sqlite3.connect(file_store.path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert file_store._conn().execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    conn.close()


@pytest.mark.parametrize("kill_after", [1, 4, 6])
def test_a_killed_process_loses_no_acknowledged_action_and_the_game_resumes(tmp_path, kill_after):
    db = tmp_path / "games.db"
    game_id = Session.create(EventStore(db), "first-island", 2, {"s_card": 4}).game_id
    with subprocess.Popen(
        [sys.executable, "-m", "tests.integration.actor", str(db), game_id],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as proc:
        acked = 0
        for action in ACTIONS[:kill_after]:
            proc.stdin.write(json.dumps(action) + "\n")
            proc.stdin.flush()
            assert proc.stdout.readline().strip() == f"ok {acked + 1}"
            acked += 1
        # One more action in flight, then the power goes: SIGKILL, no clean-up runs.
        proc.stdin.write(json.dumps(ACTIONS[kill_after]) + "\n")
        proc.stdin.flush()
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL

    resumed = Session(EventStore(db), game_id)
    assert resumed.seq in (acked, acked + 1)  # the in-flight one is all or nothing
    expected = replay(resumed.game, 2, resumed.options, resumed.entries)
    assert resumed.state == expected
    # The game goes on from where it stopped.
    for action in ACTIONS[resumed.seq :]:
        resumed.act(action)
    assert resumed.seq == len(ACTIONS)
    assert resumed.state.round == 2


def test_a_full_disk_refuses_the_action_and_keeps_the_game(file_store):
    session = Session.create(file_store, "first-island", 2, {"s_card": 4})
    session.act(roll(1, 2, 3, 3, 5))
    conn = file_store._conn()
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")
    big = Mark(0, (0, 0), (1, 2), 0)
    before = session.state
    try:
        with pytest.raises(StorageError, match="could not append") as info:
            for _ in range(2000):  # fill the pages the limit allows, then one more
                session.act(big)
                session.undo()
        assert "full" in str(info.value)
    finally:
        conn.execute("PRAGMA max_page_count = 1073741823")
    assert session.state in (before, session.game.apply(before, big))
    assert Session(file_store, session.game_id).state == session.state
    session.act(Mark(1, (0, 0), (1, 2), 0))  # space again: the game goes on


def test_a_games_folder_that_cannot_be_made_is_named_with_what_to_do(tmp_path):
    (tmp_path / "afile").write_text("")
    (tmp_path / "data" / "games.db").mkdir(parents=True)
    said = {}
    for place in ("afile", "afile/sub", "data"):
        with pytest.raises(StorageError) as info:
            EventStore(tmp_path / place / "games.db")
        said[place] = info.value.message
        assert said[place].endswith(
            "set [storage] data_dir (or --data-dir) to a folder the companion can write"
        ), said[place]
    assert f"cannot keep the games in {tmp_path / 'afile'}: it is a file" in said["afile"]
    assert (
        f"cannot make the folder {tmp_path / 'afile' / 'sub'} for the games (Not a"
        in said["afile/sub"]
    )
    assert f"{tmp_path / 'data' / 'games.db'}: it is a folder" in said["data"]


def test_a_damaged_games_database_is_named_and_left_as_it_is(tmp_path):
    db = tmp_path / "games.db"
    store = EventStore(db)
    Session.create(store, "first-island", 2, {"s_card": 4}).act(ACTIONS[0])
    store._conn().execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    whole = db.read_bytes()
    for kind, data in (("cut short", whole[: len(whole) // 3]), ("not one", b"x" * 5000)):
        db.write_bytes(data)
        with pytest.raises(StorageError) as info:
            EventStore(db)
        assert info.value.code == "storage/not-a-database", kind
        assert info.value.message.startswith(f"{db} is not a games database SQLite can read")
        assert f"move it aside (mv {db} {db}.bad) to start with no games" in info.value.message
        assert db.read_bytes() == data, kind


def test_the_newest_game_is_the_last_made_whatever_the_clock_said(tmp_path, monkeypatch):
    # A Pi has no clock of its own: after a power cut it starts at the time it last saved
    # (fake-hwclock), up to an hour back, until a network sets it. A game made then was
    # listed below the one before it, and after a restart the camera's rolls went there.
    import companion.engine.store as store_module

    store = EventStore(tmp_path / "games.db")
    first = Session.create(store, "first-island", 2, {"s_card": 4}).game_id
    monkeypatch.setattr(store_module.time, "time", lambda: 1_000_000.0)  # set back, 1970
    second = Session.create(store, "first-island", 2, {"s_card": 4}).game_id
    store.close()
    reopened = EventStore(tmp_path / "games.db")  # as the device starts again
    assert [g.game_id for g in reopened.games()] == [second, first]
    reopened.close()

"""Shared fixtures: a real SQLite event store (in memory or on disk) and sessions."""

from __future__ import annotations

import pytest

from companion.engine.game import get_game
from companion.engine.session import Session
from companion.engine.store import EventStore


@pytest.fixture
def store():
    s = EventStore(":memory:")
    yield s
    s.close()


@pytest.fixture
def file_store(tmp_path):
    s = EventStore(tmp_path / "games.db")
    yield s
    s.close()


@pytest.fixture
def first_island():
    return get_game("first-island")


@pytest.fixture
def session(store):
    return Session.create(store, "first-island", 2, {"s_card": 4})

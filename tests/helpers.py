"""Small builders shared by tests (not fixtures: plain functions)."""

from __future__ import annotations

from companion.engine.game import DiceRolled
from companion.games.first_island.model import Cell


def large(q, r, tribe):
    return Cell((q, r), (tribe,))


def split(q, r, axis, a, b):
    return Cell((q, r), (a, b), axis)


def cells(*items):
    return {c.hex: c for c in items}


def roll(*values):
    return DiceRolled(tuple(values), source="test")

"""The First War's state as JSON and back (cells by name)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.first_war import hexmap
from companion.games.first_war.state import Battle, Card, Piece, Side, State


def _piece(p: Piece) -> list:
    return [p.kind, p.wounded, p.steps, None if p.came is None else hexmap.name(p.came), p.stopped]


def _side(s: Side) -> dict:
    card = lambda c: [c.level, c.index]  # noqa: E731
    return {
        "cells": {hexmap.name(c): [_piece(p) for p in ps] for c, ps in s.cells.items()},
        "revealed": sorted(card(c) for c in s.revealed),
        "active": sorted(card(c) for c in s.active),
        "paid": [[c.level, c.index, v] for c, v in s.paid.items()],
        "bonus": dict(s.bonus),
        "emergency": s.emergency,
    }


def to_json(state: State) -> dict:
    b = state.battle
    return {
        "terrain": {hexmap.name(c): t for c, t in state.terrain.items()},
        "sides": [_side(s) for s in state.sides],
        "seat": state.seat,
        "phase": state.phase,
        "turn": state.turn,
        "points": state.points,
        "battle": None
        if b is None
        else {
            "cell": hexmap.name(b.cell),
            "stacks": [list(s) for s in b.stacks],
            "retreats": [[s, hexmap.name(c), i] for s, c, i in b.retreats],
        },
        "pending": [hexmap.name(c) for c in state.pending],
        "wounds_owed": state.wounds_owed,
        "level_iv": state.level_iv,
        "ended": state.ended,
        "winner": state.winner,
    }


def _side_from(d: Mapping[str, Any]) -> Side:
    cell = hexmap.parse
    return Side(
        cells={
            cell(k): tuple(
                Piece(p[0], p[1], p[2], None if p[3] is None else cell(p[3]), p[4]) for p in ps
            )
            for k, ps in d["cells"].items()
        },
        revealed=frozenset(Card(*c) for c in d["revealed"]),
        active=frozenset(Card(*c) for c in d["active"]),
        paid={Card(lv, i): v for lv, i, v in d["paid"]},
        bonus=dict(d["bonus"]),
        emergency=d["emergency"],
    )


def from_json(data: Mapping[str, Any]) -> State:
    cell = hexmap.parse
    b = data["battle"]
    return State(
        terrain={cell(k): t for k, t in data["terrain"].items()},
        sides=(_side_from(data["sides"][0]), _side_from(data["sides"][1])),
        seat=data["seat"],
        phase=data["phase"],
        turn=data["turn"],
        points=data["points"],
        battle=None
        if b is None
        else Battle(
            cell(b["cell"]),
            tuple(tuple(s) for s in b["stacks"]),
            tuple((s, cell(c), i) for s, c, i in b["retreats"]),
        ),
        pending=tuple(cell(c) for c in data["pending"]),
        wounds_owed=data["wounds_owed"],
        level_iv=data["level_iv"],
        ended=data["ended"],
        winner=data["winner"],
    )

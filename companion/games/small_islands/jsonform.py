"""Small Islands' state as JSON and back."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, fields
from typing import Any

from companion.games.small_islands.state import Entry, Objective, State


def to_json(state: State) -> dict:
    data = {f.name: getattr(state, f.name) for f in fields(state)}
    data["objectives"] = {str(k): asdict(v) for k, v in state.objectives.items()}
    data["later"] = {str(k): asdict(v) for k, v in state.later.items()}
    data["ready"] = sorted(state.ready)
    data["ledger"] = [asdict(e) for e in state.ledger]
    for k in ("hands", "bonus", "houses", "own_ship", "landed", "discovery", "deck", "drawn"):
        data[k] = list(data[k])
    return data


def from_json(data: Mapping[str, Any]) -> State:
    d = dict(data)
    d["objectives"] = {int(k): Objective(**v) for k, v in d["objectives"].items()}
    d["later"] = {int(k): Objective(**v) for k, v in d["later"].items()}
    d["ready"] = frozenset(d["ready"])
    d["ledger"] = tuple(Entry(**e) for e in d["ledger"])
    for k in ("hands", "bonus", "houses", "own_ship", "landed", "discovery", "deck", "drawn"):
        d[k] = tuple(d[k])
    return State(**d)

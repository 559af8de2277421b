"""My Island's state as JSON and back (squares by name, tiles by code)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.my_island.board import Board, square_name
from companion.games.my_island.state import Entry, Placed, Proposal, Rules, State
from companion.games.my_island.tiles import Tile


def _entry(e: Entry) -> dict:
    return {"seat": e.seat, "points": e.points, "key": e.key, "reason": e.reason}


def _placed(p: Placed) -> dict:
    return {
        "tile": p.tile.code,
        "by": p.by,
        "owner": p.owner,
        "how": p.how,
        "white": list(p.white),
        "black": [list(b) for b in p.black],
    }


def to_json(state: State) -> dict:
    r = state.rules
    p = state.proposal
    return {
        "players": state.players,
        "rules": {
            "board": list(r.board.rows),
            "water_tiles": r.water_tiles,
            "ports": r.ports,
            "kingdoms": r.kingdoms,
            "auction": r.auction,
            "faces": list(r.faces),
            "values": dict(r.values),
            "catalogue": {str(k): v for k, v in r.catalogue.items()},
        },
        "phase": state.phase,
        "queue": list(state.queue),
        "hands": list(state.hands),
        "island": {square_name(s): _placed(x) for s, x in state.island.items()},  # in play order
        "ledger": [_entry(e) for e in state.ledger],
        "round": state.round,
        "first": state.first,
        "step": state.step,
        "proposal": None
        if p is None
        else {
            "seat": p.seat,
            "square": square_name(p.square),
            "tile": p.tile.code,
            "how": p.how,
            "entries": [_entry(e) for e in p.entries],
            "white": p.white,
            "black": list(p.black),
        },
        "last": None if state.last is None else square_name(state.last),
        "black": list(state.black),
        "attacker": state.attacker,
        "roll": list(state.roll),
        "capitols": {str(k): square_name(v) for k, v in sorted(state.capitols.items())},
        "protected": sorted(state.protected),
        "playing_out": sorted(state.playing_out),
        "bought": sorted(square_name(s) for s in state.bought),
        "ended": state.ended,
    }


def from_json(data: Mapping[str, Any]) -> State:
    r = data["rules"]
    board = Board(tuple(r["board"]))
    sq = board.parse
    entry = lambda e: Entry(e["seat"], e["points"], e["key"], e["reason"])  # noqa: E731
    p = data["proposal"]
    return State(
        players=data["players"],
        rules=Rules(
            board=board,
            water_tiles=r["water_tiles"],
            ports=r["ports"],
            kingdoms=r["kingdoms"],
            auction=r["auction"],
            faces=tuple(r["faces"]),
            values=dict(r["values"]),
            catalogue={int(k): v for k, v in r["catalogue"].items()},
        ),
        phase=data["phase"],
        queue=tuple(data["queue"]),
        hands=tuple(data["hands"]),
        island={
            sq(k): Placed(
                Tile.from_code(v["tile"]),
                v["by"],
                v["owner"],
                v["how"],
                tuple(v["white"]),
                tuple((s, f) for s, f in v["black"]),
            )
            for k, v in data["island"].items()
        },
        ledger=tuple(entry(e) for e in data["ledger"]),
        round=data["round"],
        first=data["first"],
        step=data["step"],
        proposal=None
        if p is None
        else Proposal(
            p["seat"],
            sq(p["square"]),
            Tile.from_code(p["tile"]),
            p["how"],
            tuple(entry(e) for e in p["entries"]),
            p["white"],
            tuple(p["black"]),
        ),
        last=None if data["last"] is None else sq(data["last"]),
        black=tuple(data["black"]),
        attacker=data["attacker"],
        roll=tuple(data["roll"]),
        capitols={int(k): sq(v) for k, v in data["capitols"].items()},
        protected=frozenset(data["protected"]),
        playing_out=frozenset(data["playing_out"]),
        bought=frozenset(sq(s) for s in data["bought"]),
        ended=data["ended"],
    )

"""The island file: a game's tiles in the order they were played, with their commerce
dice, and the tiles left in each hand; ``score`` recounts every player's production points
from it, line by line (``companion score my-island FILE``; docs/my-island.md).

Capitols, auctions and misplay penalties are table decisions, not part of the island: the
file scores what the island and the dice give.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import BadBoard, IllegalAction
from companion.games.my_island import scoring
from companion.games.my_island.board import Board, square_name
from companion.games.my_island.placing import check_place
from companion.games.my_island.state import (
    FACE_NAMES,
    LINES,
    TILE_LEFT_COST,
    Entry,
    Placed,
    Rules,
    State,
)
from companion.games.my_island.tiles import Tile

HOWS = ("setup", "defence", "play", "water")
MAX_PLAYS = 400


def write(state: State) -> dict:
    """The game's island as a file ``score`` reads (players numbered from 1)."""
    r = state.rules
    return {
        "game": "my-island",
        "players": state.players,
        "rules": {
            "board": list(r.board.rows),
            "water_tiles": r.water_tiles,
            "ports": r.ports,
            "values": dict(r.values),
        },
        "plays": [
            {
                "player": p.by + 1,
                "square": square_name(sq),
                "tile": p.tile.code,
                "as": p.how,
                **({"white": list(p.white)} if p.white else {}),
                **(
                    {"black": [{"player": s + 1, "face": f} for s, f in p.black]} if p.black else {}
                ),
            }
            for sq, p in state.island.items()
        ],
        "hands": list(state.hands),
    }


def _bad(where: str, why: str) -> BadBoard:
    return BadBoard(f"{where}: {why}", code="board/invalid")


def _rules(data: Mapping[str, Any], players: int) -> Rules:
    r = data.get("rules", {})
    if not isinstance(r, Mapping):
        raise _bad("rules", "must be an object (board, water_tiles, ports, values)")
    for name in ("water_tiles", "ports"):
        if not isinstance(r.get(name, False), bool):
            raise _bad(f"rules.{name}", f"must be true or false, not {r[name]!r}")
    values = r.get("values", {})
    if not isinstance(values, Mapping) or any(
        k not in ("mining", "logging", "farming")
        or not isinstance(v, int)
        or isinstance(v, bool)
        or not 0 <= v <= 99
        for k, v in values.items()
    ):
        raise _bad("rules.values", "maps mining, logging and farming to 0 to 99 PP a die")
    try:
        board = Board.standard(players) if "board" not in r else Board.custom(r["board"])
    except IllegalAction as exc:
        raise _bad("rules.board", str(exc).removeprefix("option 'board': ")) from None
    return Rules(
        board,
        water_tiles=r.get("water_tiles", False),
        ports=r.get("ports", False),
        values=dict(values),
    )


def _faces(where: str, faces: Any) -> tuple[str, ...]:
    if not isinstance(faces, list) or len(faces) > 3 or any(f not in FACE_NAMES for f in faces):
        raise _bad(where, f"must list up to 3 faces, each one of {', '.join(FACE_NAMES)}")
    return tuple(faces)


def score(data: Any) -> dict:
    """Each player's production points by line, and the total; BadBoard naming the field."""
    if not isinstance(data, Mapping):
        raise _bad("the file", "must be a JSON object with players, plays and hands")
    players = data.get("players")
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 6:
        raise _bad("players", f"must be 2 to 6, not {players!r}")
    rules = _rules(data, players)
    plays = data.get("plays")
    if not isinstance(plays, list) or len(plays) > MAX_PLAYS:
        raise _bad("plays", f"must be a list of at most {MAX_PLAYS} tiles played")
    island: dict = {}
    ledger: list[Entry] = []
    for i, play in enumerate(plays):
        ledger += _play(rules, island, players, i, play)
    hands = data.get("hands", [0] * players)
    if (
        not isinstance(hands, list)
        or len(hands) != players
        or any(not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 10 for n in hands)
    ):
        raise _bad("hands", f"must list {players} numbers of tiles left in hand (0 to 10)")
    ledger += [
        Entry(s, -TILE_LEFT_COST * n, "hand", f"{n} tile{'s' * (n != 1)} left in hand")
        for s, n in enumerate(hands)
        if n
    ]
    return {
        "players": [
            {
                "player": s + 1,
                "lines": {
                    k: sum(e.points for e in ledger if e.seat == s and e.key == k) for k, _ in LINES
                },
                "total": sum(e.points for e in ledger if e.seat == s),
                "reasons": [f"{e.points:+d} {e.reason}" for e in ledger if e.seat == s],
            }
            for s in range(players)
        ]
    }


def _seat(where: str, value: Any, players: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= players:
        raise _bad(where, f"must be a player from 1 to {players}, not {value!r}")
    return value - 1


def _play(rules: Rules, island: dict, players: int, i: int, play: Any) -> list[Entry]:
    where = f"plays[{i}]"
    if not isinstance(play, Mapping):
        raise _bad(where, "must be an object (player, square, tile, as)")
    seat = _seat(f"{where}.player", play.get("player"), players)
    how = play.get("as", "play")
    if how not in HOWS:
        raise _bad(f"{where}.as", f"must be one of {', '.join(HOWS)}, not {how!r}")
    if how == "water" and not rules.water_tiles:
        raise _bad(f"{where}.as", "a Water tile needs rules.water_tiles true")
    try:
        sq = rules.board.parse(play.get("square"))
        tile = Tile.from_code(play.get("tile")) if how != "water" else Tile.from_code("WATER")
        check_place(rules, island, sq, tile, "play" if how == "defence" else how)
    except IllegalAction as exc:
        raise _bad(where, str(exc)) from None
    owner = seat if how == "play" else None
    out = (
        scoring.placement_entries(rules, island, seat, sq, tile) if how in ("play", "water") else []
    )
    island[sq] = Placed(tile, seat, owner, how)
    if how != "play":
        return out
    white = _faces(f"{where}.white", play.get("white", []))
    wanted = min(3, len(scoring.trading(rules, island, sq, tile)))
    if len(white) not in (0, wanted):
        raise _bad(f"{where}.white", f"the tile throws {wanted} white dice, not {len(white)}")
    out += scoring.dice_entries(rules, island, sq, seat, white, "White")
    black = play.get("black", [])
    if not isinstance(black, list):
        raise _bad(f"{where}.black", "must be a list of {player, face}")
    throwers = scoring.black_throwers(rules, island, sq)
    for j, roll in enumerate(black):
        at = f"{where}.black[{j}]"
        if not isinstance(roll, Mapping):
            raise _bad(at, "must be an object {player, face}")
        who = _seat(f"{at}.player", roll.get("player"), players)
        if who not in throwers:
            raise _bad(f"{at}.player", f"player {who + 1} has no tile trading with this one")
        out += scoring.dice_entries(
            rules, island, sq, who, _faces(f"{at}.face", [roll.get("face")]), "Black"
        )
    return out

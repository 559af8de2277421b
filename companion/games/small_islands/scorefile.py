"""The reward file: each player's reward records round by round (the reward and each
island's counts), their ships' Ports and Discovery tokens; ``score`` totals each player's
Prestige Points (``companion score small-islands FILE``; docs/small-islands.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import BadBoard
from companion.games.small_islands import cards


def _bad(where: str, why: str) -> BadBoard:
    return BadBoard(f"{where}: {why}", code="board/invalid")


def _count(where: str, value: Any, top: int = 60) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= top:
        raise _bad(where, f"must be a whole number from 0 to {top}, not {value!r}")
    return value


def _island(where: str, data: Any, mission: str | None) -> dict[str, int]:
    if not isinstance(data, Mapping):
        raise _bad(where, f"must be an island's counts ({', '.join(cards.COUNTS)})")
    unknown = sorted(set(data) - set(cards.COUNTS))
    if unknown:
        raise _bad(where, f"{unknown[0]!r} is no count of an island ({', '.join(cards.COUNTS)})")
    counts = {k: _count(f"{where}.{k}", data.get(k, 0)) for k in cards.COUNTS}
    if counts["tiles"] < 1:
        raise _bad(f"{where}.tiles", "an island has a tile at least")
    if mission is not None and not cards.fulfils(mission, counts):
        raise _bad(where, f"the island does not fulfil the mission ({cards.MISSIONS[mission][0]})")
    return counts


def _player(where: str, data: Any) -> dict:
    if not isinstance(data, Mapping):
        raise _bad(where, "must be an object (rounds, ships, discovery)")
    rounds = data.get("rounds", [])
    if not isinstance(rounds, list) or len(rounds) > 4:
        raise _bad(f"{where}.rounds", "must list up to 4 rounds")
    rewards = 0
    for r, record in enumerate(rounds):
        at = f"{where}.rounds[{r}]"
        if not isinstance(record, Mapping) or record.get("reward") not in cards.REWARDS:
            raise _bad(f"{at}.reward", f"must be one of {', '.join(cards.REWARDS)}")
        mission = record.get("mission")
        if mission is not None and mission not in cards.MISSIONS:
            raise _bad(f"{at}.mission", f"must be one of {', '.join(cards.MISSIONS)}")
        islands = record.get("islands", [])
        if not isinstance(islands, list) or len(islands) > 8:
            raise _bad(f"{at}.islands", "must list up to 8 islands with a House")
        for i, island in enumerate(islands):
            rewards += cards.reward(
                record["reward"], _island(f"{at}.islands[{i}]", island, mission)
            )
    ships = _count(f"{where}.ships", data.get("ships", 0), 32)
    discovery = _count(f"{where}.discovery", data.get("discovery", 0), 200)
    return {
        "rewards": rewards,
        "ships": ships,
        "discovery": discovery,
        "total": rewards + ships + discovery,
    }


def score(data: Any) -> dict:
    if not isinstance(data, Mapping):
        raise _bad("the file", "must be a JSON object with players")
    players = data.get("players")
    if not isinstance(players, list) or not 1 <= len(players) <= 4:
        raise _bad("players", "must list 1 to 4 players")
    out = [{"player": p + 1, **_player(f"players[{p}]", d)} for p, d in enumerate(players)]
    return {"players": out}

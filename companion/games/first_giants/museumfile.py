"""The museum file: each player's sets on display, the News tokens they hold and their
points from effects; ``score`` counts each player's total (``companion score first-giants
FILE``; docs/first-giants.md). Each set is checked as the game checks a display."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import BadBoard
from companion.games.first_giants import museum
from companion.games.first_giants.museum import EGG, SIZES, Fossil
from companion.games.first_giants.state import State

NEWS_VALUES = (3, 5)


def write(state: State) -> dict:
    """The game's museums as a file ``score`` reads (players numbered from 1)."""
    return {
        "game": "first-giants",
        "news": {k: v for k, v in state.rules.news.items()},
        "players": [
            {
                "player": p + 1,
                "sets": [
                    {"cards": [{"family": c.family, "size": c.size} for c in cards], "tokens": n}
                    for cards, n in zip(state.museum[p], state.tokens[p], strict=True)
                ],
                "news": sorted(k for k, (holder, _) in state.news.items() if holder == p),
                "points": state.points(p),
            }
            for p in range(state.players)
        ],
    }


def _bad(where: str, why: str) -> BadBoard:
    return BadBoard(f"{where}: {why}", code="board/invalid")


def _card(where: str, c: Any) -> Fossil:
    if not isinstance(c, Mapping) or not isinstance(c.get("family"), str) or not c["family"]:
        raise _bad(where, 'must be a card {"family": ..., "size": ...}')
    if c.get("size") not in (*SIZES, EGG):
        raise _bad(f"{where}.size", f"must be small, medium, large or egg, not {c.get('size')!r}")
    return Fossil(c["family"][:20], c["size"])


def _set(where: str, data: Any) -> tuple[tuple[Fossil, ...], int]:
    if not isinstance(data, Mapping) or not isinstance(data.get("cards"), list):
        raise _bad(where, 'must be {"cards": [...], "tokens": N}')
    raw = data["cards"]
    if not 1 <= len(raw) <= museum.COMPLETE[museum.SIZE_SET]:
        raise _bad(f"{where}.cards", "must hold 1 to 5 cards")
    cards: tuple[Fossil, ...] = ()
    for i, c in enumerate(raw):
        card = _card(f"{where}.cards[{i}]", c)
        if cards and (why := museum.refusal(cards, card)):
            raise _bad(f"{where}.cards[{i}]", why)
        cards = (*cards, card)
    tokens = data.get("tokens", len(cards) - 1)
    if not isinstance(tokens, int) or isinstance(tokens, bool) or not 0 <= tokens < len(cards):
        raise _bad(f"{where}.tokens", f"must be 0 to {len(cards) - 1} (one per card added)")
    return cards, tokens


def score(data: Any) -> dict:
    """Each player's Set tokens, News tokens and points, and total; BadBoard naming the field."""
    if not isinstance(data, Mapping):
        raise _bad("the file", "must be a JSON object with news and players")
    news = data.get("news", {})
    if not isinstance(news, Mapping) or any(
        not isinstance(k, str) or v not in NEWS_VALUES for k, v in news.items()
    ):
        raise _bad("news", "maps each News token (family:NAME, size:SIZE) to 3 or 5 points")
    players = data.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 5:
        raise _bad("players", "must list 2 to 5 players")
    out, held = [], set()
    for p, player in enumerate(players):
        where = f"players[{p}]"
        if not isinstance(player, Mapping):
            raise _bad(where, "must be an object (sets, news, points)")
        sets = player.get("sets", [])
        if not isinstance(sets, list) or len(sets) > 40:
            raise _bad(f"{where}.sets", "must be a list of sets")
        scored = [_set(f"{where}.sets[{k}]", s) for k, s in enumerate(sets)]
        tokens = sum(n * museum.TOKEN[museum.complete(c)] for c, n in scored)
        mine = player.get("news", [])
        if not isinstance(mine, list) or any(k not in news for k in mine):
            raise _bad(f"{where}.news", "must list News tokens named in news")
        if held & set(mine):
            raise _bad(f"{where}.news", f"{sorted(held & set(mine))[0]} is held by another player")
        held |= set(mine)
        points = player.get("points", 0)
        if not isinstance(points, int) or isinstance(points, bool) or abs(points) > 1000:
            raise _bad(f"{where}.points", "must be a whole number of points (-1000 to 1000)")
        news_points = sum(news[k] for k in mine)
        out.append(
            {
                "player": p + 1,
                "set_tokens": tokens,
                "news": news_points,
                "points": points,
                "total": tokens + news_points + points,
            }
        )
    return {"players": out}

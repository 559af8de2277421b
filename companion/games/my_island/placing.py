"""Where a tile may go: the island's frontier, edge matching, the set-up phase's edge rule,
the Water tile's squares, and tiles that fit a square (for the random play-outs of the
conformance tests and for telling a square no tile can fill)."""

from __future__ import annotations

from collections.abc import Mapping

from companion.errors import IllegalAction
from companion.games.my_island.board import Square, square_name
from companion.games.my_island.state import Placed, Rules
from companion.games.my_island.tiles import DIRECTIONS, HALVES, Tile, opposite

Island = Mapping[Square, Placed]
EDGE_KINDS = ("Quarter", "Half")  # set-up tiles that go on the board's outer edge


def _words(edge: tuple[bool, bool]) -> str:
    if all(edge):
        return "land"
    if not any(edge):
        return "water"
    return "land and water"


def demands(rules: Rules, island: Island, sq: Square) -> dict[int, bool] | None:
    """What the placed neighbours of ``sq`` demand of its quadrants (index -> land), or
    None where two of them disagree about one quadrant: no tile can fill the square."""
    need: dict[int, bool] = {}
    for d in range(4):
        nb = island.get(rules.board.neighbour(sq, d))
        if nb is None:
            continue
        for q, land in zip(HALVES[d], nb.tile.edge(opposite(d)), strict=True):
            if need.setdefault(q, land) != land:
                return None
    return need


def touches(rules: Rules, island: Island, sq: Square) -> bool:
    return any(rules.board.neighbour(sq, d) in island for d in range(4))


def frontier(rules: Rules, island: Island) -> list[Square]:
    """The empty squares beside a played tile, in board order."""
    return sorted(s for s in rules.board.squares - set(island) if touches(rules, island, s))


def fillable(rules: Rules, island: Island, sq: Square) -> bool:
    """Could some tile (a land tile, or a Water tile where the rules allow one) fill ``sq``?"""
    need = demands(rules, island, sq)
    return need is not None and (any(need.get(q, True) for q in range(4)) or rules.water_tiles)


def complete(rules: Rules, island: Island) -> bool:
    """Is the island complete: every square filled, or every empty one unfillable?"""
    empty = rules.board.squares - set(island)
    return not empty or (bool(island) and not any(fillable(rules, island, s) for s in empty))


def check_place(
    rules: Rules, island: Island, sq: Square, tile: Tile, how: str, last_setup: bool = False
) -> None:
    """Raise IllegalAction, naming the rule, unless ``tile`` may be played on ``sq`` as
    ``how`` (setup, defence, play or water)."""
    where = square_name(sq)
    if sq in island:
        raise IllegalAction(f"{where} already holds a tile", code="island/occupied")
    board = rules.board
    if how == "setup":
        edge = board.on_edge(sq)
        if tile.kind in EDGE_KINDS and not edge:
            raise IllegalAction(
                f"a {tile.kind} tile is set up on the board's outer edge, and {where} is not on it",
                code="island/setup_edge",
            )
        if tile.kind not in EDGE_KINDS and edge:
            raise IllegalAction(
                f"a {tile.kind} tile is set up inside the outer edge, and {where} is on it",
                code="island/setup_edge",
            )
        if last_setup and island and not touches(rules, island, sq):
            raise IllegalAction(
                f"the last set-up tile must touch one already played; {where} touches none",
                code="island/not_touching",
            )
    elif not touches(rules, island, sq):
        raise IllegalAction(
            f"{where} touches no tile: play beside the island", code="island/not_touching"
        )
    if tile.water_tile and board.on_edge(sq):
        raise IllegalAction(
            f"a Water tile is not played on the board's edge, and {where} is on it",
            code="island/water_edge",
        )
    for d in range(4):
        nb = island.get(board.neighbour(sq, d))
        if nb is None:
            continue
        mine, theirs = tile.edge(d), nb.tile.edge(opposite(d))
        if mine != theirs:
            side = DIRECTIONS[d]
            raise IllegalAction(
                f"the tile's {side} edge ({_words(mine)}) does not match the "
                f"{_words(theirs)} of {square_name(board.neighbour(sq, d))}: turn the tile or "
                "choose another square",
                code="island/edges",
            )


def fitting(rules: Rules, island: Island, sq: Square, how: str) -> list[Tile]:
    """A few tiles that fit ``sq`` with no turn: land where the neighbours allow, road ends
    meeting their roads, a community on some (the conformance play-outs' choices)."""
    need = demands(rules, island, sq)
    if need is None:
        return []
    land = tuple(need.get(q, True) for q in range(4))
    if how == "setup" and rules.board.on_edge(sq):
        land = (True, True, False, False)  # a Half tile, as the edge's set-up tiles are
    if not any(land):
        return []
    out = []
    for community in ("road", "fishing", "farming"):
        roads = []
        for d in range(4):
            a, b = HALVES[d]
            roads.append(
                community
                if (land[a] or land[b]) and d % 2 == 0
                else "road"
                if (land[a] or land[b])
                else None
            )
        tile = Tile(3 + 2 * len(out), land, tuple(roads))  # type: ignore[arg-type]
        try:
            check_place(rules, island, sq, tile, how)
        except IllegalAction:
            continue
        out.append(tile)
    return out

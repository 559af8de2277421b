"""What My Island shows: each page's view of the state, the legal moves of play, and one
sentence for each action in the history."""

from __future__ import annotations

from typing import Any

from companion.errors import IllegalAction
from companion.games.my_island import rules
from companion.games.my_island.board import PLAY_OUT, square_name
from companion.games.my_island.flow import capitol_site, for_auction, targets
from companion.games.my_island.placing import check_place, fitting, frontier
from companion.games.my_island.state import (
    Attack,
    BuildCapitol,
    Buy,
    Cancel,
    Confirm,
    Discard,
    EndTurn,
    Finish,
    Misplay,
    Pick,
    Place,
    PlayOut,
    Protect,
    Refill,
    State,
    Take,
)
from companion.games.my_island.tiles import WATER, Tile

FRONTIER_SAMPLE = 12  # squares whose fitting tiles legal_actions offers


def legal_actions(state: State, seat: int | None) -> list:
    """The moves of play for ``seat`` (None: the table's button). A sample of the tiles
    that fit (any tile may be described; ``apply`` checks it); the host's corrections
    (auction, misplay, ending the game) are not listed."""
    if state.ended:
        return []
    out: list = []
    if seat is not None and rules.can_play_out(state, seat):
        out.append(PlayOut(seat))
    who = rules.actor(state)
    if state.phase == "select":
        return [Pick()] if seat is None else out + ([Pick(seat)] if seat == who else [])
    if state.phase == "draw":
        return [Refill()] if seat is None else out + ([Refill(seat)] if seat == who else [])
    if state.phase == "play" and state.step == "after":
        if seat is None:
            return [EndTurn()]
        if seat == who:
            out += [EndTurn(seat)]
            out += [BuildCapitol(seat, square_name(s)) for s in sorted(capitol_site(state))]
        return out
    if seat is None or seat != who:
        return out
    if state.proposal is not None:
        return [Confirm(seat), Cancel(seat)]
    if state.phase == "play" and state.step == "attack":
        return [Attack(seat, t) for t in targets(state, seat)]
    if state.phase == "play" and state.step not in ("defend", "place"):
        return out  # the dice
    if state.phase == "play" and state.step == "place":
        if seat in state.capitols and seat not in state.protected:
            out.append(Protect(seat))
        if seat in state.playing_out or not state.hands[seat]:
            out.append(Take(seat))
        if not state.hands[seat]:
            return out
        out.append(Discard(seat))
    return out + _placements(state, seat)


def _placements(state: State, seat: int) -> list:
    how = "setup" if state.phase == "setup" else "defence" if state.step == "defend" else "play"
    if how == "setup":
        empty = sorted(state.rules.board.squares - set(state.island))
        if len(state.queue) == 1 and state.island:
            empty = frontier(state.rules, state.island)
        squares = empty[:: max(1, len(empty) // FRONTIER_SAMPLE)]
    else:
        squares = frontier(state.rules, state.island)[:FRONTIER_SAMPLE]
    out = []
    for sq in squares:
        out += [
            Place(seat, square_name(sq), t.code)
            for t in fitting(state.rules, state.island, sq, how)
        ]
        if how == "play" and state.rules.water_tiles:
            try:
                check_place(state.rules, state.island, sq, WATER, "water")
                out.append(Place(seat, square_name(sq), "WATER"))
            except IllegalAction:
                pass
    return out


def _tile(tile: Tile) -> dict:
    return {
        "code": tile.code,
        "value": tile.value,
        "land": list(tile.land),
        "roads": list(tile.roads),
        "kind": tile.kind,
    }


def _entries(entries) -> list[dict]:
    return [{"seat": e.seat, "points": e.points, "key": e.key, "reason": e.reason} for e in entries]


def player_view(state: State, seat: int | None) -> dict:
    """Everything is public in My Island: the island, hand sizes, the ledger; with what
    each page needs drawn from it (whose move, what a tile put down would score)."""
    r = state.rules
    p = state.proposal
    return {
        "phase": state.phase,
        "step": state.step,
        "round": state.round,
        "first": state.first,
        "seat": state.seat,
        "actor": rules.actor(state),
        "queue": list(state.queue),
        "board": list(r.board.rows),
        "edge": sorted(square_name(s) for s in r.board.squares if r.board.on_edge(s)),
        "island": {
            square_name(s): {
                **_tile(x.tile),
                "owner": x.owner,
                "by": x.by,
                "how": x.how,
                "white": list(x.white),
                "black": [list(b) for b in x.black],
            }
            for s, x in sorted(state.island.items())
        },
        "hands": list(state.hands),
        "totals": [state.total(s) for s in range(state.players)],
        "ledger": _entries(state.ledger[-60:]),
        "proposal": None
        if p is None
        else {
            "seat": p.seat,
            "square": square_name(p.square),
            "how": p.how,
            "tile": _tile(p.tile),
            "entries": _entries(p.entries),
            "points": sum(e.points for e in p.entries),
            "white": p.white,
            "black": list(p.black),
        },
        "last": None if state.last is None else square_name(state.last),
        "black": list(state.black),
        "roll": list(state.roll),
        "capitols": {str(k): square_name(v) for k, v in sorted(state.capitols.items())},
        "capitol_sites": sorted(square_name(s) for s in capitol_site(state))
        if state.phase == "play" and state.step == "after"
        else [],
        "auction": sorted(square_name(s) for s in for_auction(state))
        if state.phase == "play"
        else [],
        "protected": sorted(state.protected),
        "playing_out": sorted(state.playing_out),
        "can_play_out": [s for s in range(state.players) if rules.can_play_out(state, s)],
        "play_out_at": PLAY_OUT[state.players],
        "empty": state.empty(),
        "reshuffle": state.phase == "draw" and state.round >= 6,
        "options": {
            "water_tiles": r.water_tiles,
            "ports": r.ports,
            "kingdoms": r.kingdoms,
            "auction": r.auction,
            "faces": list(r.faces),
        },
        "catalogue": {str(k): v for k, v in sorted(r.catalogue.items())},
        "ended": state.ended,
    }


def describe(action: Any) -> str:
    """One sentence of what ``action`` did (players numbered from 1)."""
    who = f"Player {action.seat + 1}" if getattr(action, "seat", None) is not None else "The table"
    if isinstance(action, Pick):
        return f"{who if action.seat is not None else 'The next player'} took a tile."
    if isinstance(action, Refill):
        return f"{who if action.seat is not None else 'The next player'} refilled their hand."
    if isinstance(action, Place):
        turned = f", turned {action.turn * 90}°" if action.turn else ""
        what = "a Water tile" if action.tile == "WATER" else f"tile {action.tile}"
        return f"{who} put {what} on {action.square}{turned}."
    said = {
        Confirm: "played the tile put down",
        Cancel: "took back the tile put down",
        Discard: "discarded a tile and took another (turn lost)",
        Take: "took a tile instead of playing (turn lost)",
        PlayOut: "is playing out (no more refilling)",
        Protect: "paid to protect their Capitol",
        EndTurn: "ended the turn",
    }
    for kind, text in said.items():
        if isinstance(action, kind):
            return f"{who} {text}."
    if isinstance(action, BuildCapitol):
        return f"{who} built their Capitol on {action.square}."
    if isinstance(action, Attack):
        return f"{who} attacked player {action.target + 1}'s Capitol."
    if isinstance(action, Buy):
        return (
            f"Player {action.buyer + 1} bought the set-up tile on {action.square} "
            f"for {action.price} PP."
        )
    if isinstance(action, Misplay):
        return f"The misplayed tile on {action.square} was removed (40 PP penalty)."
    if isinstance(action, Finish):
        return "The host ended the game."
    return f"{action.type.replace('_', ' ').capitalize()}."

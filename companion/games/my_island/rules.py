"""My Island's pure reducer: ``apply(state, action)`` and the order of play.

Selection (picks), set-up (tiles with no owner and no points), then rounds: in each turn
(in a 2-player game after the opponent's defensive tile) the player puts a tile down, sees
what it scores, confirms it; the commerce dice follow (white for the player, black for
each trading neighbour); then, where the options allow, a Capitol or a set-up tile's
auction; after every turn of the round, the draw phase. docs/my-island.md has the rulings.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.engine.game import DiceRolled
from companion.games.my_island import scoring
from companion.games.my_island.board import NUMBER, PLAY_OUT, Square, square_name
from companion.games.my_island.commerce import attack, build, buy, dice, protect, rolled
from companion.games.my_island.flow import (
    actor,
    add,
    after_dice,
    can_play_out,
    end_turn,
    finish,
    next_refill,
    refuse,
    start_round,
)
from companion.games.my_island.placing import check_place, complete
from companion.games.my_island.state import (
    HAND,
    MAX_WHITE,
    MISPLAY_PENALTY,
    Attack,
    BuildCapitol,
    Buy,
    Cancel,
    Confirm,
    Discard,
    EndTurn,
    Entry,
    Finish,
    Misplay,
    Pick,
    Place,
    Placed,
    PlayOut,
    Proposal,
    Protect,
    Refill,
    State,
    Take,
)
from companion.games.my_island.tiles import Tile


def apply(state: State, action: Any) -> State:
    """The state after ``action``; IllegalAction (nothing changes) if it is not allowed."""
    if state.ended:
        raise refuse(f"the game is over ({state.ended})", "action/game_over")
    kind = type(action)
    if kind in _HOST:
        return _HOST[kind](state, action)
    if isinstance(action, PlayOut):
        return _play_out(state, action.seat)
    if isinstance(action, DiceRolled):
        return rolled(state, tuple(action.values))
    handler = _BY_PHASE.get((state.phase, kind))
    if handler is None:
        raise refuse(
            f"{action.type.replace('_', ' ')} is not part of the {_doing(state)}",
            "action/wrong_phase",
        )
    seat = getattr(action, "seat", None)
    if seat is not None and seat != actor(state):
        who = actor(state)
        raise refuse(
            f"it is not player {seat + 1}'s move: the {_doing(state)} waits on "
            + ("the dice" if who is None else f"player {who + 1}"),
            "action/not_your_turn",
        )
    return handler(state, action)


def _doing(state: State) -> str:
    if state.phase == "play":
        return {
            "defend": "defensive tile",
            "place": "turn",
            "white": "commerce dice",
            "black": "black die",
            "attack": "black die's attack",
            "after": "end of the turn",
        }[state.step]
    return {"select": "tile selection", "setup": "set-up phase", "draw": "draw phase"}.get(
        state.phase, "game"
    )


__all__ = ["actor", "apply", "can_play_out", "dice", "resolve"]


def _pick(state: State, action: Pick) -> State:
    seat = state.seat
    hands = add(state.hands, seat, 1)
    queue = state.queue[1:]
    if queue:
        return replace(state, hands=hands, queue=queue)
    from companion.games.my_island.setup import setup_order

    return replace(state, hands=hands, phase="setup", queue=setup_order(state.players))


def _refill(state: State, action: Refill) -> State:
    seat = state.seat
    hands = add(state.hands, seat, max(0, HAND - state.hands[seat]))  # type: ignore[index]
    return next_refill(replace(state, hands=hands, queue=state.queue[1:]))


def resolve(state: State, text: str) -> Tile:
    """The tile a ``Place`` names: a code, ``#N`` from the catalogue, or ``WATER``."""
    if text.startswith("#"):
        number = text[1:]
        code = state.rules.catalogue.get(int(number)) if NUMBER.match(number) else None
        if code is None:
            raise refuse(
                f"the tile catalogue has no tile {text}: it numbers tiles "
                f"{min(state.rules.catalogue)} to {max(state.rules.catalogue)}",
                "tile/unknown",
            )
        return Tile.from_code(code)
    return Tile.from_code(text)


def _how(state: State) -> str:
    if state.phase == "setup":
        return "setup"
    return "defence" if state.step == "defend" else "play"


def _place(state: State, action: Place) -> State:
    if state.phase == "play" and state.step not in ("defend", "place"):
        raise refuse("the tile is played; finish this turn first", "action/wrong_phase")
    if not 0 <= action.turn <= 3:
        raise refuse(f"turn must be 0 to 3 quarter turns, not {action.turn}", "action/malformed")
    how = _how(state)
    if how != "defence" and state.hands[action.seat] < 1:
        raise refuse(f"player {action.seat + 1} has no tile in hand: take one", "island/empty_hand")
    tile = resolve(state, action.tile).turned(action.turn)
    if tile.water_tile:
        if not state.rules.water_tiles or how != "play":
            raise refuse(
                "Water tiles are played only in a turn, with the Water tiles option",
                "island/no_water_tiles",
            )
        how = "water"
    sq = state.rules.board.parse(action.square)
    last_setup = state.phase == "setup" and len(state.queue) == 1
    check_place(state.rules, state.island, sq, tile, how, last_setup)
    return replace(state, proposal=_propose(state, action.seat, sq, tile, how))


def _propose(state: State, seat: int, sq: Square, tile: Tile, how: str) -> Proposal:
    if how not in ("play", "water"):
        return Proposal(seat, sq, tile, how)
    rules = state.rules
    entries = scoring.placement_entries(rules, state.island, seat, sq, tile)
    island = {**state.island, sq: Placed(tile, seat, None if tile.water_tile else seat, how)}
    white = min(MAX_WHITE, len(scoring.trading(rules, island, sq, tile)))
    return Proposal(
        seat, sq, tile, how, tuple(entries), white, scoring.black_throwers(rules, island, sq)
    )


def _confirm(state: State, action: Confirm) -> State:
    p = state.proposal
    if p is None:
        raise refuse("no tile is down to confirm: place one first", "island/nothing_placed")
    owner = p.seat if p.how == "play" else None
    island = {**state.island, p.square: Placed(p.tile, p.seat, owner, p.how)}
    hands = state.hands if p.how == "defence" else add(state.hands, p.seat, -1)
    state = replace(
        state, island=island, hands=hands, proposal=None, ledger=state.ledger + p.entries
    )
    if p.how == "setup":
        if len(state.queue) > 1:
            return replace(state, queue=state.queue[1:])
        return start_round(state, 1, 0)
    if p.how == "defence":
        if complete(state.rules, state.island):
            return finish(state, "the island is complete")
        return replace(state, step="place")
    state = replace(state, last=p.square, black=p.black)
    return replace(state, step="white") if p.white else after_dice(state)


def _cancel(state: State, action: Cancel) -> State:
    if state.proposal is None:
        raise refuse("no tile is down to take back", "island/nothing_placed")
    return replace(state, proposal=None)


def _discard(state: State, action: Discard) -> State:
    if state.step != "place" or state.hands[action.seat] < 1:
        raise refuse(
            "a tile is discarded instead of playing one, from a hand that has one",
            "action/wrong_phase",
        )
    return end_turn(replace(state, proposal=None))


def _take(state: State, action: Take) -> State:
    if state.step != "place" or (action.seat not in state.playing_out and state.hands[action.seat]):
        raise refuse(
            "a tile is taken instead of a turn only while playing out (or with an empty hand)",
            "action/wrong_phase",
        )
    return end_turn(replace(state, proposal=None, hands=add(state.hands, action.seat, 1)))


def _play_out(state: State, seat: int) -> State:
    if not 0 <= seat < state.players:
        raise refuse(f"there is no player {seat + 1}", "action/malformed")
    if not can_play_out(state, seat):
        limit = PLAY_OUT[state.players]
        raise refuse(
            "playing out is declared once, during the rounds, when at most "
            f"{limit} squares are empty ({state.empty()} are)",
            "island/not_yet",
        )
    state = replace(state, playing_out=state.playing_out | {seat})
    return next_refill(state) if state.phase == "draw" else state


def _end(state: State, action: EndTurn) -> State:
    return end_turn(state)


def _misplay(state: State, action: Misplay) -> State:
    sq = state.rules.board.parse(action.square)
    placed = state.island.get(sq)
    if placed is None:
        raise refuse(f"{action.square} holds no tile", "island/empty_square")
    if sq == state.last:
        raise refuse(
            "the tile was played this turn: undo it instead (no penalty)", "island/this_turn"
        )
    island = {s: p for s, p in state.island.items() if s != sq}
    fine = Entry(
        placed.by, -MISPLAY_PENALTY, "penalty", f"misplayed tile removed from {square_name(sq)}"
    )
    capitols = {s: c for s, c in state.capitols.items() if c != sq}
    return replace(state, island=island, capitols=capitols, ledger=(*state.ledger, fine))


def _finish_now(state: State, action: Finish) -> State:
    return finish(state, "ended by the host")


_HOST = {Buy: buy, Misplay: _misplay, Finish: _finish_now}
_BY_PHASE = {
    ("select", Pick): _pick,
    ("draw", Refill): _refill,
    ("setup", Place): _place,
    ("setup", Confirm): _confirm,
    ("setup", Cancel): _cancel,
    ("play", Place): _place,
    ("play", Confirm): _confirm,
    ("play", Cancel): _cancel,
    ("play", Discard): _discard,
    ("play", Take): _take,
    ("play", Protect): protect,
    ("play", Attack): attack,
    ("play", BuildCapitol): build,
    ("play", EndTurn): _end,
}

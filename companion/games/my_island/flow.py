"""My Island's order of play: who the game waits on, the turn's steps, the end of a turn,
the draw phase and the next round, and the end of the game."""

from __future__ import annotations

from dataclasses import replace

from companion.errors import IllegalAction
from companion.games.my_island import scoring
from companion.games.my_island.board import PLAY_OUT, Square
from companion.games.my_island.placing import complete
from companion.games.my_island.state import KINGDOM, TILE_LEFT_COST, Entry, State


def refuse(why: str, code: str = "action/illegal") -> IllegalAction:
    return IllegalAction(why, code=code)


def actor(state: State) -> int | None:
    """The seat the game waits on for a tile or a choice (None: the dice, or nobody)."""
    if state.phase in ("select", "setup", "draw"):
        return state.seat
    if state.phase != "play":
        return None
    if state.step == "defend":
        return 1 - state.seat  # type: ignore[operator]
    if state.step == "black":
        return state.black[0]
    if state.step == "attack":
        return state.attacker
    return state.seat


def can_play_out(state: State, seat: int) -> bool:
    return (
        state.phase in ("play", "draw")
        and seat not in state.playing_out
        and state.empty() <= PLAY_OUT[state.players]
    )


def next_refill(state: State) -> State:
    queue = tuple(s for s in state.queue if s not in state.playing_out)
    if queue:
        return replace(state, queue=queue)
    return start_round(state, state.round + 1, (state.first + 1) % state.players)


def start_round(state: State, number: int, first: int) -> State:
    queue = tuple((first + i) % state.players for i in range(state.players))
    state = replace(state, phase="play", round=number, first=first, queue=queue)
    if complete(state.rules, state.island):  # a small board, filled by its set-up tiles
        return finish(state, "the island is complete")
    return begin_turn(state)


def begin_turn(state: State) -> State:
    seat = state.seat
    return replace(
        state,
        step="defend" if state.players == 2 else "place",
        protected=state.protected - {seat},
        last=None,
        bought=frozenset(),
        roll=(),
    )


def end_turn(state: State) -> State:
    if complete(state.rules, state.island):
        return finish(state, "the island is complete")
    queue = state.queue[1:]
    state = replace(state, step="", last=None, black=(), attacker=None)
    if queue:
        return begin_turn(replace(state, queue=queue))
    n = state.players
    draw = tuple((state.first - i) % n for i in range(n))  # counter-clockwise
    return next_refill(replace(state, phase="draw", queue=draw))


def finish(state: State, why: str) -> State:
    costs = tuple(
        Entry(s, -TILE_LEFT_COST * n, "hand", f"{n} tile{'s' * (n != 1)} left in hand")
        for s, n in enumerate(state.hands)
        if n
    )
    return replace(
        state,
        ledger=state.ledger + costs,
        phase="over",
        queue=(),
        step="",
        proposal=None,
        ended=why,
    )


def after_dice(state: State) -> State:
    """On from the dice: the black die's throwers, then the end of the turn (waiting
    where a Capitol may be built or a set-up tile bought)."""
    if state.black:
        return replace(state, step="black")
    if capitol_site(state) or for_auction(state):
        return replace(state, step="after")
    return end_turn(state)


def capitol_site(state: State) -> set[Square]:
    if not state.rules.kingdoms or state.seat in state.capitols or state.last is None:
        return set()
    land = scoring.kingdom(state.rules, state.island, state.last)
    return land if len(land) >= KINGDOM else set()


def for_auction(state: State) -> list[Square]:
    if not state.rules.auction or state.last is None:
        return []
    board = state.rules.board
    near = [board.neighbour(state.last, d) for d in range(4)]
    return [
        s
        for s in near
        if (p := state.island.get(s)) is not None
        and p.how == "setup"
        and p.owner is None
        and s not in state.bought
    ]


def targets(state: State, thrower: int) -> list[int]:
    return [s for s in sorted(state.capitols) if s != thrower and s not in state.protected]


def add(values: tuple[int, ...], i: int | None, n: int) -> tuple[int, ...]:
    return tuple(v + n if k == i else v for k, v in enumerate(values))

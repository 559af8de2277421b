"""The commerce dice (white for the player, black for each trading neighbour) and the
optional rules that play on them: Capitols and the auction of set-up tiles."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.engine.game import DiceSpec
from companion.games.my_island import scoring
from companion.games.my_island.flow import (
    after_dice,
    capitol_site,
    end_turn,
    for_auction,
    refuse,
    targets,
)
from companion.games.my_island.state import (
    CAPITOL_COST,
    CAPITOL_LOSS,
    CAPITOL_SHARE,
    KINGDOM,
    MAX_WHITE,
    PROTECTION_COST,
    Attack,
    BuildCapitol,
    Buy,
    Entry,
    Protect,
    State,
)


def dice(state: State) -> DiceSpec | None:
    """The white dice for the tile just played, then the black die for each trading
    neighbour in turn; faces named by the face table (a standard d6 standing in)."""
    if state.phase != "play" or state.step not in ("white", "black"):
        return None
    faces = {i + 1: name.capitalize() for i, name in enumerate(state.rules.faces)}
    if state.step == "white":
        n = min(MAX_WHITE, len(trading_here(state)))
        return DiceSpec(n, faces, purpose="commerce", dice=("white",) * n)
    return DiceSpec(1, faces, purpose=f"black die, player {state.black[0] + 1}", dice=("black",))


def trading_here(state: State) -> list[str]:
    sq = state.last
    return scoring.trading(state.rules, state.island, sq, state.island[sq].tile)  # type: ignore[index]


def rolled(state: State, values: tuple[int, ...]) -> State:
    spec = dice(state)
    if spec is None:
        raise refuse("no dice are wanted now", "roll/not_expected")
    spec.check(values)
    faces = tuple(state.rules.faces[v - 1] for v in values)
    rules, sq = state.rules, state.last
    if state.step == "white":
        seat = state.seat
        entries = scoring.dice_entries(rules, state.island, sq, seat, faces, "White")  # type: ignore[arg-type]
        entries += capitol_shares(state, faces.count("my-island"))
        state = record(state, white=faces)
        state = replace(state, ledger=state.ledger + tuple(entries), roll=faces)
        return after_dice(state)
    thrower = state.black[0]
    entries = scoring.dice_entries(rules, state.island, sq, thrower, faces, "Black")  # type: ignore[arg-type]
    state = record(state, black=(*state.island[sq].black, (thrower, faces[0])))  # type: ignore[index]
    state = replace(state, ledger=state.ledger + tuple(entries), roll=faces, black=state.black[1:])
    if faces[0] == "my-island":
        open_to = targets(state, thrower)
        if len(open_to) > 1:
            return replace(state, step="attack", attacker=thrower)
        if open_to:
            state = hit(state, open_to[0])
    return after_dice(state)


def record(state: State, **dice: Any) -> State:
    """The tile just played, with its commerce dice kept (for the island file)."""
    sq = state.last
    return replace(state, island={**state.island, sq: replace(state.island[sq], **dice)})  # type: ignore[index]


def capitol_shares(state: State, faces: int) -> list[Entry]:
    owners = sorted(state.capitols)
    if not faces or not owners:
        return []
    each = CAPITOL_SHARE * faces // len(owners)
    return [
        Entry(
            s,
            each,
            "capitol",
            f"My-Island on {faces} white {'die' if faces == 1 else 'dice'}: {each} to each Capitol",
        )
        for s in owners
    ]


def hit(state: State, target: int) -> State:
    hit = Entry(target, -CAPITOL_LOSS, "capitol", "Capitol attacked: My-Island on the black die")
    return replace(state, ledger=(*state.ledger, hit))


def attack(state: State, action: Attack) -> State:
    if action.target not in targets(state, action.seat):
        raise refuse(
            f"player {action.target + 1} has no unprotected Capitol to attack", "island/no_capitol"
        )
    return after_dice(replace(hit(state, action.target), step="black", attacker=None))


def build(state: State, action: BuildCapitol) -> State:
    sq = state.rules.board.parse(action.square)
    if sq not in capitol_site(state):
        raise refuse(
            f"a Capitol is built on a tile of a kingdom of {KINGDOM} or more road-connected "
            f"tiles the tile just played joins; {action.square} is not one",
            "island/no_kingdom",
        )
    cost = Entry(action.seat, -CAPITOL_COST, "capitol", f"Capitol built on {action.square}")
    state = replace(
        state, capitols={**state.capitols, action.seat: sq}, ledger=(*state.ledger, cost)
    )
    return state if for_auction(state) else end_turn(state)


def protect(state: State, action: Protect) -> State:
    if action.seat not in state.capitols or action.seat in state.protected:
        raise refuse("only an unprotected Capitol's owner pays to protect it", "island/no_capitol")
    cost = Entry(action.seat, -PROTECTION_COST, "capitol", "Capitol protected")
    return replace(state, protected=state.protected | {action.seat}, ledger=(*state.ledger, cost))


def buy(state: State, action: Buy) -> State:
    sq = state.rules.board.parse(action.square)
    if state.phase != "play" or sq not in for_auction(state):
        raise refuse(
            f"{action.square} is no set-up tile beside the tile just played, for auction now",
            "island/no_auction",
        )
    if not 0 <= action.buyer < state.players or not 0 <= action.price <= 10_000:
        raise refuse("the buyer is a player and the price 0 to 10000 PP", "action/malformed")
    cost = Entry(
        action.buyer,
        -action.price,
        "auction",
        f"bought the set-up tile on {action.square} for {action.price}",
    )
    island = {**state.island, sq: replace(state.island[sq], owner=action.buyer)}
    state = replace(state, island=island, bought=state.bought | {sq}, ledger=(*state.ledger, cost))
    return (
        state
        if state.step != "after" or for_auction(state) or capitol_site(state)
        else end_turn(state)
    )

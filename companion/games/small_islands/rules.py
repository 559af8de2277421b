"""Small Islands' setup and pure reducer ``apply(state, action)``: preparation (secret
objectives, the navigation stack), exploration (explore, or land once the navigation stack
is empty), the reward on each island with a House, and the ships at the end; in a solo
game, Alexis' turns from his exploration cards (docs/small-islands.md)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.errors import IllegalAction
from companion.games.small_islands import cards
from companion.games.small_islands.state import (
    ALEXIS,
    ALEXIS_HOUSES,
    BONUS,
    HAND,
    HOUSES,
    LANDSCAPE,
    NAVIGATION,
    ROUNDS,
    ROW,
    SHIPS,
    AlexisCard,
    AlexisDeck,
    AlexisHouses,
    AlexisPlaced,
    Choose,
    Entry,
    Explore,
    Finish,
    Island,
    Land,
    Objective,
    Rewarded,
    Ship,
    State,
)

MAX_COUNT = 60


def refuse(why: str, code: str = "islands/illegal") -> IllegalAction:
    return IllegalAction(why, code=code)


def setup(players: int, options: Any) -> State:
    alexis = options.get("alexis", 2) if players == 1 else None
    reserve = LANDSCAPE - ROW - HAND * players
    state = State(
        players=players,
        advanced=options.get("advanced", False),
        alexis=alexis,
        reserve=reserve,
        hands=(HAND,) * players,
        bonus=(BONUS,) * players,
        houses=(HOUSES,) * players,
        alexis_houses=ALEXIS_HOUSES if alexis is not None else 0,
        own_ship=(True,) * players,
        grey=SHIPS - players,
        discovery=(0,) * players,
    )
    return _prepare(state)


def _prepare(state: State) -> State:
    """A new round: 6 tiles to the navigation stack, or the end when too few are left."""
    if state.reserve < NAVIGATION:
        return replace(state, phase="ships", ready=frozenset())
    return replace(
        state,
        phase="prepare",
        nav=NAVIGATION,
        reserve=state.reserve - NAVIGATION,
        ready=frozenset(),
        turn=0,
        objectives={},
        card=None,
        alexis_reward=False,
    )


def _objective(state: State, card: int, mission: str, reward: str, what: str) -> Objective:
    if not state.advanced:
        if card not in cards.OBJECTIVES:
            raise refuse(f"{what}: name an objective card by its number, 1 to 12", "islands/card")
        return Objective(*cards.OBJECTIVES[card])
    if mission not in cards.MISSIONS or reward not in cards.REWARDS:
        raise refuse(
            f"{what}: a mission ({', '.join(cards.MISSIONS)}) and a reward "
            f"({', '.join(cards.REWARDS)})",
            "islands/card",
        )
    return Objective(mission, reward)


def _choose(state: State, a: Choose) -> State:
    now = _objective(state, a.card, a.mission, a.reward, "this round's objective")
    objectives = {**state.objectives, a.seat: now}
    later = dict(state.later)
    if state.round < ROUNDS:
        later[a.seat] = _objective(
            state,
            a.later,
            a.later_mission,
            a.later_reward,
            "the objective put aside for the next round",
        )
        if (a.later, a.later_mission, a.later_reward) == (a.card, a.mission, a.reward):
            raise refuse("put aside another objective than this round's", "islands/card")
    state = replace(state, objectives=objectives, later=later, ready=state.ready | {a.seat})
    if len(state.ready) == state.players:
        return replace(state, phase="explore", ready=frozenset())
    return state


def _next(state: State) -> State:
    return replace(state, turn=state.turn + 1)


def _explore(state: State, a: Explore) -> State:
    if state.row == 0 and a.take == 0 and not a.bonus:
        return _next(state)  # no tile left to take: the turn passes (a ship lands the round)
    if not 1 <= a.take <= state.row:
        raise refuse(
            f"take one of the {state.row} face-up tiles (1 to {state.row})", "islands/tile"
        )
    bonus = state.bonus
    if a.bonus:
        if a.bonus not in ("resource", "port") or not bonus[a.seat]:
            raise refuse(
                "a bonus token is a resource or a port, and you need one left", "islands/bonus"
            )
        bonus = tuple(b - (i == a.seat) for i, b in enumerate(bonus))
    state = _refill(replace(state, bonus=bonus))
    return _next(state)


def _refill(state: State) -> State:
    """The face-up tile taken is replaced from the navigation stack, else the reserve."""
    if state.nav:
        return replace(state, nav=state.nav - 1)
    if state.reserve:
        return replace(state, reserve=state.reserve - 1)
    return replace(state, row=state.row - 1)


def _land(state: State, a: Land) -> State:
    if state.nav:
        raise refuse(
            f"no landing while {state.nav} tiles lie on the navigation stack", "islands/storm"
        )
    own = state.own_ship
    if a.ship == "own" and own[a.seat]:
        own = tuple(o and i != a.seat for i, o in enumerate(own))
        state = replace(state, own_ship=own)
    elif a.ship == "grey" and state.grey:
        state = replace(state, grey=state.grey - 1)
    else:
        raise refuse("no such ship is left: your own ship, or a grey one", "islands/ship")
    return _to_reward(replace(state, landed=(*state.landed, str(a.seat + 1))))


def _to_reward(state: State) -> State:
    return replace(state, phase="reward", ready=frozenset(), card=None)


def _island(state: State, a: Island) -> State:
    counts = dict(zip(cards.COUNTS, a.counts, strict=True))
    if any(not 0 <= n <= MAX_COUNT for n in a.counts) or counts["tiles"] < 1:
        raise refuse(
            f"an island's counts are 0 to {MAX_COUNT}, and it has a tile at least", "islands/counts"
        )
    if a.seat in state.ready:
        raise refuse("you have finished this round's reward", "islands/done")
    objective = state.objectives[a.seat]
    if not cards.fulfils(objective.mission, counts):
        said = cards.MISSIONS[objective.mission][0]
        raise refuse(
            f"that island does not fulfil your mission ({said}): no House there", "islands/mission"
        )
    if not state.houses[a.seat]:
        raise refuse("you have no House left", "islands/houses")
    houses = tuple(h - (i == a.seat) for i, h in enumerate(state.houses))
    state = replace(state, houses=houses)
    if objective.reward == "temples":
        if not counts["temples"]:
            return state
        found = tuple(d + (i == a.seat) for i, d in enumerate(state.discovery))
        return replace(state, discovery=found)
    points = cards.reward(objective.reward, counts)
    entry = Entry(
        a.seat,
        points,
        "rewards",
        f"round {state.round}: an island of {counts['tiles']} tile{'s' * (counts['tiles'] != 1)}",
    )
    return replace(state, ledger=(*state.ledger, entry))


def _rewarded(state: State, a: Rewarded) -> State:
    if a.seat in state.ready:
        raise refuse("you have finished this round's reward", "islands/done")
    return _after_reward(replace(state, ready=state.ready | {a.seat}))


def _after_reward(state: State) -> State:
    if len(state.ready) < state.players or (state.alexis is not None and not state.alexis_reward):
        return state
    if state.round >= ROUNDS or state.reserve < NAVIGATION:
        return replace(state, phase="ships", ready=frozenset())  # no navigation stack left
    return _prepare(replace(state, round=state.round + 1, objectives={}))


def _ship(state: State, a: Ship) -> State:
    if a.seat in state.ready:
        raise refuse("your ships are counted already", "islands/done")
    if not 0 <= a.ports <= 4 * 8 or not 0 <= a.discovery <= 200:
        raise refuse(
            "count the Ports around your ships (0 to 32) and your Discovery tokens' "
            "points (0 to 200)",
            "islands/counts",
        )
    extra = [Entry(a.seat, a.ports, "ships", "Ports around the ships")]
    if a.discovery:
        extra.append(Entry(a.seat, a.discovery, "discovery", "Discovery tokens"))
    state = replace(state, ledger=(*state.ledger, *extra), ready=state.ready | {a.seat})
    return _maybe_end(state)


def _maybe_end(state: State) -> State:
    alexis_done = state.alexis is None or any(e.key == "alexis_end" for e in state.ledger)
    if len(state.ready) == state.players and alexis_done:
        return replace(state, phase="over", ended="every ship counted")
    return state


# -- Alexis ------------------------------------------------------------------------------
def alexis_turn(state: State) -> bool:
    return state.alexis is not None and state.phase == "explore" and state.seat == state.players


def _alexis_deck(state: State, a: AlexisDeck) -> State:
    if state.alexis is None or state.deck:
        raise refuse("Alexis' exploration stack is made once, in a solo game", "islands/alexis")
    explore, land = cards.ALEXIS[state.alexis][1:3]
    kinds = [cards.EXPLORATION[c][0] for c in a.cards if c in cards.EXPLORATION]
    if (
        len(set(a.cards)) != len(a.cards)
        or len(kinds) != len(a.cards)
        or kinds.count("explore") != explore
        or kinds.count("land") != land
    ):
        raise refuse(
            f"Alexis card {state.alexis} takes {explore} Explore and {land} Land cards, each once",
            "islands/card",
        )
    return replace(state, deck=tuple(a.cards))


def _draw(state: State, card: int) -> State:
    """Alexis draws ``card`` from his stack (shuffled again when it runs out)."""
    if card not in state.deck:
        raise refuse(
            f"card {card} is not in Alexis' exploration stack "
            f"({', '.join(map(str, sorted(state.deck)))})",
            "islands/card",
        )
    drawn = () if len(state.drawn) >= len(state.deck) else state.drawn
    if card in drawn:
        raise refuse(
            f"card {card} was drawn already; the stack is shuffled when it runs out", "islands/card"
        )
    return replace(state, drawn=(*drawn, card))


def _alexis_card(state: State, a: AlexisCard) -> State:
    if a.card not in cards.EXPLORATION:
        raise refuse("name Alexis' exploration card by its number, 1 to 15", "islands/card")
    if not state.deck:
        raise refuse("make Alexis' exploration stack first", "islands/alexis")
    if state.phase == "reward":
        if state.card is not None or state.alexis_reward:
            raise refuse("Alexis has drawn his card for this reward", "islands/alexis")
        return replace(_draw(state, a.card), card=a.card)
    if not alexis_turn(state) or state.card is not None:
        raise refuse("it is not Alexis' turn to draw", "action/not_your_turn")
    state = _draw(state, a.card)
    take = cards.EXPLORATION[a.card][1]
    if take > state.row:
        # the tile he wants is not there: the last reward, starting with Alexis
        return replace(_to_reward(state), round=ROUNDS, card=None)
    return replace(state, card=a.card)


def alexis_lands(state: State) -> bool:
    """Does the card in play make Alexis land (a Land card, the navigation stack empty, a
    ship left)?"""
    kind = cards.EXPLORATION[state.card][0]  # type: ignore[index]
    return kind == "land" and not state.nav and (state.grey > 0 or any(state.own_ship))


def _alexis_placed(state: State, a: AlexisPlaced) -> State:
    if not alexis_turn(state) or state.card is None:
        raise refuse("Alexis has no tile to place now", "islands/alexis")
    if alexis_lands(state) and a.placed:
        # a grey ship; the player's own, flipped grey, when it is the last ship left
        grey = state.grey - 1 if state.grey else state.grey
        own = state.own_ship if state.grey else (False, *state.own_ship[1:])
        state = replace(state, grey=grey, own_ship=own, landed=(*state.landed, "Alexis"))
        return _to_reward(state)
    # a tile (or a ship he cannot place: he explores instead, the card's action B)
    if not a.placed:
        lost = Entry(ALEXIS, 1, "alexis", "a tile Alexis could not place")
        state = replace(state, ledger=(*state.ledger, lost))
    return _next(replace(_refill(state), card=None))


def _alexis_houses(state: State, a: AlexisHouses) -> State:
    if state.alexis is None:
        raise refuse("Alexis plays only in a solo game", "islands/alexis")
    if not 0 <= a.islands <= ALEXIS_HOUSES or not 0 <= a.ports <= 32:
        raise refuse("Alexis' islands 0 to 8, Ports 0 to 32", "islands/counts")
    if state.phase == "reward" and not state.alexis_reward:
        if state.card is None:
            raise refuse("draw Alexis' card for his mission first", "islands/alexis")
        n = min(a.islands, state.alexis_houses)
        state = replace(
            state, alexis_houses=state.alexis_houses - n, alexis_reward=True, card=None, drawn=()
        )  # his stack is shuffled again
        return _after_reward(state)
    if state.phase == "ships":
        _, _, points, per_house = cards.ALEXIS[state.alexis][1:]
        placed = ALEXIS_HOUSES - state.alexis_houses
        end = (
            Entry(ALEXIS, a.ports, "ships", "Ports around his grey ships"),
            Entry(
                ALEXIS,
                points + per_house * placed,
                "alexis_end",
                f"his card: {points} PP + {per_house} per House ({placed})",
            ),
        )
        return _maybe_end(replace(state, ledger=(*state.ledger, *end)))
    raise refuse("Alexis' Houses are placed in the reward phase", "action/wrong_phase")


def apply(state: State, action: Any) -> State:
    if state.ended:
        raise refuse(f"the game is over ({state.ended})", "action/game_over")
    if isinstance(action, Finish):
        return replace(state, phase="over", ended="ended by the host")
    phase, seat = state.phase, getattr(action, "seat", None)
    allowed = {
        Choose: "prepare",
        Explore: "explore",
        Land: "explore",
        Island: "reward",
        Rewarded: "reward",
        Ship: "ships",
        AlexisPlaced: "explore",
    }
    want = allowed.get(type(action))
    if want is not None and want != phase:
        raise refuse(
            f"{action.type.replace('_', ' ')} is not part of the {phase} phase",
            "action/wrong_phase",
        )
    if isinstance(action, Explore | Land) and seat != state.seat:
        raise refuse(f"it is not player {seat + 1}'s turn", "action/not_your_turn")
    if isinstance(action, Choose) and seat in state.ready:
        raise refuse("you chose this round's objective already", "islands/done")
    handler = _HANDLERS[type(action)]
    return handler(state, action)


_HANDLERS = {
    Choose: _choose, Explore: _explore, Land: _land, Island: _island, Rewarded: _rewarded,
    Ship: _ship, AlexisDeck: _alexis_deck, AlexisCard: _alexis_card,
    AlexisPlaced: _alexis_placed,
    AlexisHouses: _alexis_houses,
}  # fmt: skip

"""What Small Islands shows, seat by seat: a phone sees its own objective and reward lines,
no one else's; the table sees no objective until the end (docs/small-islands.md)."""

from __future__ import annotations

from typing import Any

from companion.games.small_islands import cards, rules
from companion.games.small_islands.state import (
    ALEXIS,
    ALEXIS_HOUSES,
    AlexisCard,
    AlexisDeck,
    AlexisHouses,
    AlexisPlaced,
    Choose,
    Explore,
    Finish,
    Island,
    Land,
    Rewarded,
    Ship,
    State,
)

# an island that fulfils every default mission, for the play-outs
RICH = (2, 2, 2, 1, 2, 4, 2, 1)


def legal_actions(state: State, seat: int | None) -> list:
    if state.ended:
        return []
    p = state.phase
    if seat is None:
        if state.alexis is None:
            return []
        if not state.deck:
            explore, land = cards.ALEXIS[state.alexis][1:3]
            return [AlexisDeck(tuple(range(1, explore + 1)) + tuple(range(11, 11 + land)))]
        left = [c for c in state.deck if c not in state.drawn] or list(state.deck)
        if p == "explore" and rules.alexis_turn(state):
            if state.card:
                return [AlexisPlaced(True), AlexisPlaced(False)]
            return [AlexisCard(c) for c in left[:4]]
        if p == "reward" and not state.alexis_reward:
            return [AlexisHouses(2)] if state.card else [AlexisCard(left[0])]
        if p == "ships" and not any(e.key == "alexis_end" for e in state.ledger):
            return [AlexisHouses(0, 2)]
        return []
    if p == "prepare" and seat not in state.ready:
        return (
            [Choose(seat, card=c, later=c % 12 + 1) for c in (1, 5, 8)]
            if not state.advanced
            else [
                Choose(seat, mission="any", reward="flat", later_mission="big", later_reward="size")
            ]
        )
    if p == "explore" and seat == state.seat and seat < state.players:
        out: list = [Explore(seat, k) for k in range(1, state.row + 1)] or [Explore(seat, 0)]
        if state.bonus[seat] and state.row:
            out.append(Explore(seat, 1, "port"))
        if not state.nav:
            out += [
                Land(seat, s)
                for s in ("own", "grey")
                if (s == "own" and state.own_ship[seat]) or (s == "grey" and state.grey)
            ]
        return out
    if p == "reward" and seat not in state.ready:
        return ([Island(seat, RICH)] if state.houses[seat] else []) + [Rewarded(seat)]
    if p == "ships" and seat not in state.ready:
        return [Ship(seat, 2), Ship(seat, 0)]
    return []


def whose(state: State) -> int | None:
    """Whose turn it is in the exploration (None: Alexis, or not the exploration)."""
    if state.phase != "explore" or state.seat >= state.players:
        return None
    return state.seat


def _objective(state: State, seat: int) -> dict | None:
    o = state.objectives.get(seat)
    if o is None:
        return None
    return {
        "mission": o.mission,
        "reward": o.reward,
        "says": f"{cards.MISSIONS[o.mission][0]}: {cards.REWARDS[o.reward]}",
    }


def achievements(state: State, seat: int) -> list[str]:
    """The Great Explorer achievements the device can check for a winner."""
    out = []
    total = state.total(seat)
    ships = sum(e.points for e in state.ledger if e.seat == seat and e.key == "ships")
    if total >= (60 if state.advanced else 50):
        out.append(f"{60 if state.advanced else 50} PP or more")
    if ships >= (12 if state.advanced else 10):
        out.append(f"{12 if state.advanced else 10} PP of Ship or more")
    if not state.advanced and state.bonus[seat] == 0:
        out.append("All your Bonus Tokens placed")
    if state.houses[seat] == 0:
        out.append("All your Houses placed")
    mine = str(seat + 1)
    if state.landed and not state.advanced and state.landed[0] == mine:
        out.append("Your ship placed first")
    if state.landed and state.advanced and state.landed[-1] == mine:
        out.append("Your ship placed last")
    return out


def player_view(state: State, seat: int | None) -> dict:
    over = state.ended is not None
    mine = [e for e in state.ledger if seat is not None and e.seat == seat]
    totals = [state.total(s) for s in range(state.players)]
    view = {
        "phase": state.phase,
        "round": state.round,
        "advanced": state.advanced,
        "solo": state.alexis is not None,
        "turn": whose(state),
        "alexis_turn": rules.alexis_turn(state),
        "card": None
        if state.card is None
        else {
            "number": state.card,
            "kind": cards.EXPLORATION[state.card][0],
            "take": cards.EXPLORATION[state.card][1],
            "directions": cards.EXPLORATION[state.card][2],
            "mission": cards.MISSIONS[cards.EXPLORATION[state.card][3]][0],
            "lands": state.phase == "explore" and rules.alexis_lands(state),
        },
        "reserve": state.reserve,
        "nav": state.nav,
        "row": state.row,
        "hands": list(state.hands),
        "bonus": list(state.bonus),
        "houses": list(state.houses),
        "alexis_houses": ALEXIS_HOUSES - state.alexis_houses if state.alexis else 0,
        "own_ship": list(state.own_ship),
        "grey": state.grey,
        "landed": list(state.landed),
        "ready": sorted(state.ready),
        "alexis_done": state.alexis_reward,
        "deck": list(state.deck),
        "drawn": list(state.drawn),
        "alexis_counts": list(cards.ALEXIS[state.alexis][1:3]) if state.alexis else None,
        "exploration": {str(k): v[0] for k, v in cards.EXPLORATION.items()},
        "totals": totals,
        "alexis_total": state.total(ALEXIS) if state.alexis is not None else None,
        # secret: a phone's own objective; everyone's at the end; the table's none before
        "objective": _objective(state, seat) if seat is not None else None,
        "objectives": [_objective(state, s) for s in range(state.players)] if over else None,
        "mine": [{"points": e.points, "key": e.key, "reason": e.reason} for e in mine],
        "missions": {k: v[0] for k, v in cards.MISSIONS.items()},
        "rewards": dict(cards.REWARDS),
        "cards": {str(k): {"mission": m, "reward": r} for k, (m, r) in cards.OBJECTIVES.items()},
        "achievements": {str(s): achievements(state, s) for s in range(state.players)}
        if over
        else {},
        "ended": state.ended,
    }
    return view


def action_view(action: Any, seat: int | None) -> dict | None:
    """A chosen objective is its own seat's alone; everything else is public."""
    from companion.engine.game import action_to_json

    if isinstance(action, Choose) and seat != action.seat:
        return None
    return action_to_json(action)


def describe(action: Any) -> str:
    who = "The table" if getattr(action, "seat", None) is None else f"Player {action.seat + 1}"
    if isinstance(action, Choose):
        return f"{who} chose an objective."
    if isinstance(action, Explore):
        bonus = f", with a {action.bonus} bonus token" if action.bonus else ""
        return f"{who} explored: face-up tile {action.take} taken, a tile placed{bonus}."
    if isinstance(action, Land):
        return f"{who} landed ({action.ship} ship): the exploration is over."
    if isinstance(action, Island):
        return f"{who} put a House on an island of {action.counts[5]} tiles."
    if isinstance(action, Rewarded):
        return f"{who} finished the reward."
    if isinstance(action, Ship):
        return f"{who} counted {action.ports} Ports around the ships."
    if isinstance(action, AlexisDeck):
        return f"Alexis' exploration stack was made ({len(action.cards)} cards)."
    if isinstance(action, AlexisCard):
        return f"Alexis drew exploration card {action.card}."
    if isinstance(action, AlexisPlaced):
        return "Alexis' tile was placed." if action.placed else "Alexis could not place his tile."
    if isinstance(action, AlexisHouses):
        return f"Alexis' Houses: {action.islands} island(s)."
    if isinstance(action, Finish):
        return "The host ended the game."
    return f"{action.type.replace('_', ' ').capitalize()}."

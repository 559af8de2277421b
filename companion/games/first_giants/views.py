"""What First Giants shows: each page's view, the legal moves, the score lines, and one
sentence for each action in the history."""

from __future__ import annotations

from typing import Any

from companion.games.first_giants import museum
from companion.games.first_giants.museum import Fossil
from companion.games.first_giants.rules import largest
from companion.games.first_giants.state import (
    MARKERS,
    SITES,
    Deal,
    DeckEmpty,
    Display,
    Effect,
    Finish,
    GainAmber,
    Reclaim,
    State,
    Take,
)


def set_token_points(state: State, seat: int) -> int:
    return sum(
        n * museum.TOKEN[museum.complete(cards)]
        for cards, n in zip(state.museum[seat], state.tokens[seat], strict=True)
    )


def news_points(state: State, seat: int) -> int:
    return sum(state.rules.news[k] for k, (holder, _) in state.news.items() if holder == seat)


def total(state: State, seat: int) -> int:
    return set_token_points(state, seat) + news_points(state, seat) + state.points(seat)


def displays(state: State, seat: int) -> list[tuple[int, int]]:
    """Every (study card, set) display the rules allow now (set -1: a new set), amber aside."""
    out = []
    for i, card in enumerate(state.study[seat]):
        out.append((i, -1))
        out += [
            (i, k)
            for k, cards in enumerate(state.museum[seat])
            if museum.refusal(cards, card) is None
        ]
    return out


def legal_actions(state: State, seat: int | None) -> list:
    """The moves of play (a sample of the cards a deal may name: any may be named)."""
    if state.ended:
        return []
    fams = state.rules.families
    if state.phase == "deal":
        if seat is not None:
            return []
        site = next(i for i, s in enumerate(state.sites) if len(s) < 2)
        n = sum(len(s) for s in state.sites)
        return [
            Deal(site, fams[(n + k) % len(fams)], size)
            for k, size in enumerate(("small", "medium", "large", "egg"))
        ]
    if seat != state.seat:
        return []
    out: list = []
    if state.step == "choose":
        if len(state.markers[seat]) < MARKERS:
            out += [
                Take(seat, site, slot)
                for site in range(SITES)
                if site not in state.markers[seat]
                for slot in range(len(state.sites[site]))
            ]
        if state.markers[seat]:
            out.append(Reclaim(seat))
    elif state.step == "effects":
        if state.deck_empty:
            out.append(DeckEmpty(seat))
        else:
            n = state.turns
            out += [
                Deal(state.site, fams[(n + k) % len(fams)], size, seat=seat)  # type: ignore[arg-type]
                for k, size in enumerate(("small", "medium", "large", "egg"))
            ]
            if n % 7 == 6:
                out.append(DeckEmpty(seat))
    elif state.step == "reclaim":
        out.append(GainAmber(seat))
        amber = state.amber[seat]
        out += [
            Display(seat, c, into)
            for c, into in displays(state, seat)
            if state.study[seat][c].cost <= amber
        ]
    return out


def _card(card: Fossil) -> dict:
    return {
        "family": card.family,
        "size": card.size,
        "name": card.name,
        "cost": card.cost,
        "text": str(card),
    }


def player_view(state: State, seat: int | None) -> dict:
    """Everything in First Giants lies face up: the sites, each study, museum and amber."""
    return {
        "phase": state.phase,
        "step": state.step,
        "seat": state.seat if state.phase == "play" else None,
        "site": state.site,
        "choices": state.choices,
        "families": list(state.rules.families),
        "deck": sorted(state.rules.deck),
        "sites": [[_card(c) for c in s] for s in state.sites],
        "markers": [list(m) for m in state.markers],
        "amber": list(state.amber),
        "study": [[_card(c) for c in s] for s in state.study],
        "museum": [
            [
                {
                    "cards": [_card(c) for c in cards],
                    "kind": museum.kind(cards),
                    "complete": museum.complete(cards),
                    "tokens": n,
                }
                for cards, n in zip(state.museum[p], state.tokens[p], strict=True)
            ]
            for p in range(state.players)
        ],
        "displays": [list(d) for d in displays(state, seat)] if seat is not None else [],
        "supply": state.supply,
        "box": state.box,
        "news": [
            {
                "token": k,
                "value": v,
                "holder": state.news.get(k, (None, False))[0],
                "locked": state.news.get(k, (None, False))[1],
                "cards": largest(state, state.news[k][0], k) if k in state.news else 0,
            }
            for k, v in state.rules.news.items()
        ],
        "ledger": [
            {"seat": e.seat, "points": e.points, "amber": e.amber, "reason": e.reason}
            for e in state.ledger[-30:]
        ],
        "ending": state.ending,
        "deck_empty": state.deck_empty,
        "turn": state.turns // state.players + 1,
        "totals": [total(state, p) for p in range(state.players)],
        "ended": state.ended,
    }


def describe(action: Any) -> str:
    who = "The table" if getattr(action, "seat", None) is None else f"Player {action.seat + 1}"
    if isinstance(action, Deal):
        what = action.name or (
            f"{action.family} egg" if action.size == "egg" else f"{action.size} {action.family}"
        )
        return f"{who} put a {what} on dig site {action.site + 1}."
    if isinstance(action, DeckEmpty):
        return f"{who} found the deck empty."
    if isinstance(action, Take):
        return (
            f"{who} played a marker on dig site {action.site + 1} and took card {action.slot + 1}."
        )
    if isinstance(action, Reclaim):
        return f"{who} reclaimed their markers."
    if isinstance(action, GainAmber):
        return f"{who} took 1 amber."
    if isinstance(action, Display):
        where = "a new set" if action.into < 0 else f"set {action.into + 1}"
        how = f" ({action.effect}{', free' if action.free else ''})" if action.effect else ""
        return f"{who} put study card {action.card + 1} on display in {where}{how}."
    if isinstance(action, Effect):
        gave = ", ".join(
            f"{v:+d} {k}" for k, v in (("points", action.points), ("amber", action.amber)) if v
        )
        return f"{who} recorded {gave}: {action.reason}."
    if isinstance(action, Finish):
        return "The host ended the game."
    return f"{action.type.replace('_', ' ').capitalize()}."

"""First Giants' setup and pure reducer ``apply(state, action)`` (docs/first-giants.md).

The table deals the dig sites' first cards; then each turn is one action: play a marker
and take a card (its effects recorded, then the site refilled from the deck), or reclaim
every marker (each gives 1 amber or a display). Expanding a set takes a Set token and may
take or steal a News token; the end comes with the supply's last Set token or an empty deck,
once everyone has had as many turns.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.errors import IllegalAction
from companion.games.first_giants import museum
from companion.games.first_giants.museum import EGG, SIZES, Fossil
from companion.games.first_giants.state import (
    ALL_SET_TOKENS,
    MARKERS,
    SET_TOKENS,
    SITES,
    SLOTS,
    START_AMBER,
    Deal,
    DeckEmpty,
    Display,
    Effect,
    Entry,
    Finish,
    GainAmber,
    Reclaim,
    Rules,
    State,
    Take,
)

DEFAULT_FAMILIES = ("carnivore", "herbivore", "flying", "marine", "armoured")
MAX_FAMILIES = 8
MAX_EFFECT = 20  # points or amber one effect records, either way: a slip of many digits is refused


def _refuse(why: str, code: str = "action/illegal") -> IllegalAction:
    return IllegalAction(why, code=code)


def read_families(text: str) -> tuple[str, ...]:
    names = tuple(" ".join(p.split()).lower() for p in text.split(",") if p.strip())
    if not 2 <= len(names) <= MAX_FAMILIES or len(set(names)) != len(names):
        raise _refuse(
            f"option 'families' must name 2 to {MAX_FAMILIES} different Families, "
            f"comma-separated; not {text!r}",
            "setup/bad_option",
        )
    if any(len(n) > 20 for n in names):
        raise _refuse(
            "option 'families': a Family's name is at most 20 characters", "setup/bad_option"
        )
    return names


def read_deck(data: Any, families: tuple[str, ...]) -> dict[str, dict]:
    """A host's deck list: ``{"cards": [{"name", "family", "size", "points", "amber"}]}``,
    each card's single-use gains applied when it is taken."""
    if data is None:
        return {}
    cards = data.get("cards") if isinstance(data, Mapping) else None
    if not isinstance(cards, list) or not 1 <= len(cards) <= 200:
        raise _refuse(
            "option 'deck' must be {\"cards\": [...]}, 1 to 200 cards", "setup/bad_option"
        )
    out = {}
    for i, c in enumerate(cards):
        where = f"option 'deck': card {i + 1}"
        if not isinstance(c, Mapping) or not isinstance(c.get("name"), str) or not c["name"]:
            raise _refuse(f"{where} needs a name", "setup/bad_option")
        _fossil(families, c.get("family"), c.get("size"), where)
        for k in ("points", "amber"):
            v = c.get(k, 0)
            if not isinstance(v, int) or isinstance(v, bool) or abs(v) > MAX_EFFECT:
                raise _refuse(
                    f"{where}: {k} must be a whole number up to {MAX_EFFECT}", "setup/bad_option"
                )
        out[c["name"][:40]] = {
            "family": c["family"],
            "size": c["size"],
            "points": c.get("points", 0),
            "amber": c.get("amber", 0),
        }
    return out


def _fossil(families, family: Any, size: Any, where: str = "the card") -> Fossil:
    if family not in families:
        raise _refuse(
            f"{where}: Family {family!r} is not one of {', '.join(families)}", "giants/bad_card"
        )
    if size not in (*SIZES, EGG):
        raise _refuse(
            f"{where}: size {size!r} is not one of small, medium, large, egg", "giants/bad_card"
        )
    return Fossil(family, size)


def setup(players: int, options: Mapping[str, Any]) -> State:
    families = read_families(options.get("families", ", ".join(DEFAULT_FAMILIES)))
    news = {}
    for kind, names in (("family", families), ("size", SIZES)):
        value = options.get(f"{kind}_news", 3 if kind == "family" else 5)
        news.update({f"{kind}:{n}": value for n in names if value})
    rules = Rules(families, news, read_deck(options.get("deck"), families))
    supply = SET_TOKENS[players]
    return State(
        players=players,
        rules=rules,
        markers=((),) * players,
        amber=(START_AMBER,) * players,
        study=((),) * players,
        museum=((),) * players,
        tokens=((),) * players,
        supply=supply,
        box=ALL_SET_TOKENS - supply,
    )


def card_of(state: State, action: Deal) -> Fossil:
    """The card a Deal names: from the deck list by name, or by Family and Size."""
    if action.name:
        known = state.rules.deck.get(action.name)
        if known is None:
            raise _refuse(f"the deck list has no card called {action.name!r}", "giants/bad_card")
        return Fossil(known["family"], known["size"], action.name)
    return _fossil(state.rules.families, action.family, action.size)


def apply(state: State, action: Any) -> State:
    """The state after ``action``; IllegalAction (nothing changes) if it is not allowed."""
    if state.ended:
        raise _refuse(f"the game is over ({state.ended})", "action/game_over")
    if isinstance(action, Finish):
        return replace(state, phase="over", ended="ended by the host")
    if isinstance(action, Effect):
        return _effect(state, action)
    if state.phase == "deal":
        if not isinstance(action, Deal) or action.seat is not None:
            raise _refuse("first deal the dig sites' 8 cards at the table", "action/wrong_phase")
        return _deal(state, action)
    seat = getattr(action, "seat", None)
    if seat is not None and seat != state.seat:
        raise _refuse(
            f"it is player {state.seat + 1}'s turn, not player {seat + 1}'s", "action/not_your_turn"
        )
    handler = _STEPS.get((state.step, type(action)))
    if handler is None or (seat is None and not isinstance(action, Deal | DeckEmpty)):
        raise _refuse(
            f"{action.type.replace('_', ' ')} is not part of this turn now ({_NOW[state.step]})",
            "action/wrong_phase",
        )
    return handler(state, action)


_NOW = {
    "choose": "play a marker and take a card, or reclaim your markers",
    "effects": "apply the card's effects, then refill the dig site",
    "reclaim": "choose 1 amber or a display for each reclaimed marker",
}


def _deal(state: State, action: Deal) -> State:
    if not 0 <= action.site < SITES or len(state.sites[action.site]) >= SLOTS:
        raise _refuse(f"dig site {action.site + 1} is not waiting for a card", "giants/site_full")
    sites = _with(state.sites, action.site, (*state.sites[action.site], card_of(state, action)))
    state = replace(state, sites=sites)
    if all(len(s) == SLOTS for s in sites):
        state = replace(state, phase="play", step="choose")
    return state


def _take(state: State, action: Take) -> State:
    s = action.seat
    if len(state.markers[s]) >= MARKERS:
        raise _refuse("all 4 of your markers are at dig sites: reclaim them", "giants/no_marker")
    if not 0 <= action.site < SITES or action.site in state.markers[s]:
        raise _refuse(
            f"dig site {action.site + 1} already holds one of your markers (or is no "
            "site): choose another",
            "giants/site_taken",
        )
    cards = state.sites[action.site]
    if not 0 <= action.slot < len(cards):
        raise _refuse(
            f"dig site {action.site + 1} has no card {action.slot + 1}", "giants/empty_site"
        )
    card = cards[action.slot]
    state = replace(
        state,
        sites=_with(state.sites, action.site, cards[: action.slot] + cards[action.slot + 1 :]),
        markers=_with(state.markers, s, (*state.markers[s], action.site)),
        study=_with(state.study, s, (*state.study[s], card)),
        step="effects",
        site=action.site,
    )
    gains = state.rules.deck.get(card.name) if card.name else None
    if gains and (gains["points"] or gains["amber"]):
        return _gain(state, Entry(s, gains["points"], gains["amber"], f"{card.name}'s effect"))
    return state


def _refill(state: State, action: Deal) -> State:
    if action.site != state.site:
        raise _refuse(
            f"refill dig site {state.site + 1}, where the card was taken",  # type: ignore[operator]
            "giants/wrong_site",
        )
    sites = _with(state.sites, action.site, (*state.sites[action.site], card_of(state, action)))
    return _end_turn(replace(state, sites=sites))


def _deck_empty(state: State, action: DeckEmpty) -> State:
    return _end_turn(_trigger_end(replace(state, deck_empty=True)))


def _reclaim(state: State, action: Reclaim) -> State:
    s = action.seat
    if not state.markers[s]:
        raise _refuse("none of your markers is at a dig site: play one", "giants/no_marker")
    return replace(
        state, markers=_with(state.markers, s, ()), step="reclaim", choices=len(state.markers[s])
    )


def _amber(state: State, action: GainAmber) -> State:
    state = replace(state, amber=_with(state.amber, action.seat, state.amber[action.seat] + 1))
    return _spent_choice(state)


def _spent_choice(state: State) -> State:
    state = replace(state, choices=state.choices - 1)
    return state if state.choices else _end_turn(state)


def _display(state: State, action: Display) -> State:
    s = action.seat
    in_reclaim = state.step == "reclaim"
    if not in_reclaim and not action.effect.strip():
        raise _refuse(
            "outside a reclaim a fossil is displayed by a card's effect: name it",
            "giants/no_display",
        )
    if action.free and in_reclaim:
        raise _refuse("a reclaimed marker's display costs amber", "giants/no_display")
    study = state.study[s]
    if not 0 <= action.card < len(study):
        raise _refuse(f"your study has no card {action.card + 1}", "giants/no_card")
    card = study[action.card]
    sets = state.museum[s]
    if not -1 <= action.into < len(sets):
        raise _refuse(f"your museum has no set {action.into + 1}", "giants/no_set")
    if action.into >= 0 and (why := museum.refusal(sets[action.into], card)):
        raise _refuse(why, "giants/bad_set")
    cost = 0 if action.free else card.cost
    if state.amber[s] < cost:
        raise _refuse(
            f"a {card} costs {cost} amber and you have {state.amber[s]}", "giants/no_amber"
        )
    tokens = state.tokens[s]
    if action.into < 0:
        sets, tokens = (*sets, (card,)), (*tokens, 0)
    else:
        grown = (*sets[action.into], card)
        sets = _with(sets, action.into, grown)
        taken = 1 if state.supply else 0
        tokens = _with(tokens, action.into, tokens[action.into] + taken)
        state = replace(state, supply=state.supply - taken)
        if taken and not state.supply:
            state = _trigger_end(state)
    state = replace(
        state,
        study=_with(state.study, s, study[: action.card] + study[action.card + 1 :]),
        museum=_with(state.museum, s, sets),
        tokens=_with(state.tokens, s, tokens),
        amber=_with(state.amber, s, state.amber[s] - cost),
    )
    if action.into >= 0:
        state = _news(state, s, sets[action.into])
    return _spent_choice(state) if in_reclaim else state


def _news(state: State, seat: int, cards: tuple[Fossil, ...]) -> State:
    """The News token of this set's type: taken by the first to expand such a set, stolen by
    a strictly larger one, kept for good by the first to complete one."""
    kind = museum.news_type(cards)
    if kind is None or kind not in state.rules.news:
        return state
    done = museum.complete(cards)
    held = state.news.get(kind)
    if held is not None:
        holder, locked = held
        if holder == seat:
            return replace(state, news={**state.news, kind: (seat, locked or done)})
        if locked or len(cards) <= largest(state, holder, kind):
            return state
    return replace(state, news={**state.news, kind: (seat, done)})


def largest(state: State, seat: int, kind: str) -> int:
    """The most cards in ``seat``'s sets of News type ``kind``."""
    return max((len(c) for c in state.museum[seat] if museum.news_type(c) == kind), default=0)


def _effect(state: State, action: Effect) -> State:
    if state.phase != "play" or not 0 <= action.seat < state.players:
        raise _refuse("effects are recorded during play, by a player", "action/wrong_phase")
    reason = " ".join(action.reason.split())
    if not reason or len(reason) > 80:
        raise _refuse("say which card's effect this is (up to 80 characters)", "giants/no_reason")
    if abs(action.points) > MAX_EFFECT or abs(action.amber) > MAX_EFFECT:
        raise _refuse(
            f"an effect gives at most {MAX_EFFECT} points or amber either way", "giants/too_much"
        )
    if not action.points and not action.amber:
        raise _refuse("an effect records points or amber (or both)", "giants/nothing")
    return _gain(state, Entry(action.seat, action.points, action.amber, reason))


def _gain(state: State, entry: Entry) -> State:
    amber = state.amber[entry.seat] + entry.amber
    if amber < 0:
        raise _refuse(
            f"player {entry.seat + 1} has {state.amber[entry.seat]} amber: "
            f"{-entry.amber} cannot be spent",
            "giants/no_amber",
        )
    return replace(
        state, amber=_with(state.amber, entry.seat, amber), ledger=(*state.ledger, entry)
    )


def _trigger_end(state: State) -> State:
    if state.ending:
        return state
    return replace(state, ending=True, supply=state.supply + state.box, box=0)


def _end_turn(state: State) -> State:
    """The next player's turn, or the end; a player who can do nothing (no card to take at a
    site without their marker, none of their markers out to reclaim) is passed over."""
    for _ in range(state.players):
        state = replace(state, turns=state.turns + 1, step="choose", site=None, choices=0)
        if state.ending and state.turns % state.players == 0:
            why = "the deck ran out" if state.deck_empty else "the last Set token was taken"
            return replace(state, phase="over", step="", ended=f"{why}; everyone had equal turns")
        if can_act(state, state.seat):
            return state
    return replace(state, phase="over", step="", ended="no player can take a card or reclaim")


def can_act(state: State, seat: int) -> bool:
    """Can ``seat`` take a card (a marker left, a card at a site without its marker) or
    reclaim (a marker out)?"""
    if state.markers[seat]:
        return True
    return any(state.sites[k] for k in range(SITES) if k not in state.markers[seat])


def _with(values: tuple, i: int, value: Any) -> tuple:
    return tuple(value if k == i else v for k, v in enumerate(values))


def take_forced(state: State, seat: int) -> bool:
    """Must ``seat`` play a marker (none of its markers at a site)?"""
    return not state.markers[seat]


_STEPS = {
    ("choose", Take): _take,
    ("choose", Reclaim): _reclaim,
    ("effects", Deal): _refill,
    ("effects", DeckEmpty): _deck_empty,
    ("effects", Display): _display,
    ("reclaim", GainAmber): _amber,
    ("reclaim", Display): _display,
}

"""First Giants' state as JSON and back."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.first_giants.museum import Fossil
from companion.games.first_giants.state import Entry, Rules, State


def _card(c: Fossil) -> list:
    return [c.family, c.size, c.name]


def to_json(state: State) -> dict:
    return {
        "players": state.players,
        "rules": {
            "families": list(state.rules.families),
            "news": dict(state.rules.news),
            "deck": dict(state.rules.deck),
        },
        "phase": state.phase,
        "sites": [[_card(c) for c in s] for s in state.sites],
        "markers": [list(m) for m in state.markers],
        "amber": list(state.amber),
        "study": [[_card(c) for c in s] for s in state.study],
        "museum": [[[_card(c) for c in cards] for cards in sets] for sets in state.museum],
        "tokens": [list(t) for t in state.tokens],
        "supply": state.supply,
        "box": state.box,
        "news": {k: list(v) for k, v in state.news.items()},
        "ledger": [[e.seat, e.points, e.amber, e.reason] for e in state.ledger],
        "first": state.first,
        "turns": state.turns,
        "step": state.step,
        "site": state.site,
        "choices": state.choices,
        "ending": state.ending,
        "deck_empty": state.deck_empty,
        "ended": state.ended,
    }


def from_json(data: Mapping[str, Any]) -> State:
    card = lambda c: Fossil(*c)  # noqa: E731
    r = data["rules"]
    return State(
        players=data["players"],
        rules=Rules(tuple(r["families"]), dict(r["news"]), dict(r["deck"])),
        phase=data["phase"],
        sites=tuple(tuple(card(c) for c in s) for s in data["sites"]),
        markers=tuple(tuple(m) for m in data["markers"]),
        amber=tuple(data["amber"]),
        study=tuple(tuple(card(c) for c in s) for s in data["study"]),
        museum=tuple(
            tuple(tuple(card(c) for c in cards) for cards in sets) for sets in data["museum"]
        ),
        tokens=tuple(tuple(t) for t in data["tokens"]),
        supply=data["supply"],
        box=data["box"],
        news={k: (v[0], v[1]) for k, v in data["news"].items()},
        ledger=tuple(Entry(*e) for e in data["ledger"]),
        first=data["first"],
        turns=data["turns"],
        step=data["step"],
        site=data["site"],
        choices=data["choices"],
        ending=data["ending"],
        deck_empty=data["deck_empty"],
        ended=data["ended"],
    )

"""The First Island's state as JSON and back (the conformance test checks the round trip)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.first_island.hexgrid import Island
from companion.games.first_island.model import CampCard, Cell
from companion.games.first_island.state import Options, PlayerBoard, State


def state_to_json(state: State) -> dict:
    return {
        "players": state.players,
        "island": state.island.to_json(),
        "options": {
            "camp_cards": state.options.camp_cards,
            "variant": state.options.variant,
            "difficulty": state.options.difficulty,
        },
        "round": state.round,
        "roll": None if state.roll is None else list(state.roll),
        "rerolled": state.rerolled,
        "roll_kept": state.roll_kept,
        "table": _card_json(state.table),
        "table_scored_by": sorted(state.table_scored_by),
        "table_spent": state.table_spent,
        "ended": state.ended,
        "boards": [_board_json(b) for b in state.boards],
    }


def state_from_json(data: Mapping[str, Any]) -> State:
    return State(
        players=data["players"],
        island=Island(tuple(h) for h in data["island"]),
        options=Options(**data["options"]),
        boards=tuple(_board_from_json(b) for b in data["boards"]),
        round=data["round"],
        roll=None if data["roll"] is None else tuple(data["roll"]),
        rerolled=data["rerolled"],
        roll_kept=data["roll_kept"],
        table=_card_from_json(data["table"]),
        table_scored_by=frozenset(data["table_scored_by"]),
        table_spent=data["table_spent"],
        ended=data["ended"],
    )


def _card_json(card: CampCard | None) -> dict | None:
    return None if card is None else {"deck": card.deck, "size": card.size, "points": card.points}


def _card_from_json(data: Mapping | None) -> CampCard | None:
    return None if data is None else CampCard(data["deck"], data["size"], data["points"])


def _board_json(b: PlayerBoard) -> dict:
    return {
        "cells": [b.cells[h].to_json() for h in sorted(b.cells)],
        "overrides": list(b.overrides),
        "claimed": [[list(p) for p in camp] for camp in b.claimed],
        "scored_cards": [_card_json(c) for c in b.scored_cards],
        "hand": _card_json(b.hand),
        "dice_used": sorted(b.dice_used),
        "marks": b.marks,
        "override_this_turn": b.override_this_turn,
        "card_this_round": b.card_this_round,
    }


def _board_from_json(d: Mapping) -> PlayerBoard:
    cells = {}
    for c in d["cells"]:
        h = tuple(c["hex"])
        cells[h] = (
            Cell(h, (c["large"],)) if "large" in c else Cell(h, tuple(c["halves"]), c["split"])
        )
    return PlayerBoard(
        cells=cells,
        overrides=tuple(d["overrides"]),
        claimed=tuple(tuple(tuple(p) for p in camp) for camp in d["claimed"]),
        scored_cards=tuple(_card_from_json(c) for c in d["scored_cards"]),
        hand=_card_from_json(d["hand"]),
        dice_used=frozenset(d["dice_used"]),
        marks=d["marks"],
        override_this_turn=d["override_this_turn"],
        card_this_round=d["card_this_round"],
    )

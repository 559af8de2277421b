"""The First Island: map the island with 5 tribe dice a turn; camps, requests, camp cards.

The rulebook is shared/rules/first-island.txt; the readings we chose where it is
ambiguous are listed in scoring.py, cards.py and solo.py, and docs/first-island.md.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping
from typing import Any, ClassVar

from companion.engine.game import DiceSpec, Outcome, action_to_json, register
from companion.games.first_island import rules
from companion.games.first_island.boardfile import board_to_json
from companion.games.first_island.hexgrid import Island
from companion.games.first_island.model import (
    FACE_TRIBE,
    TRIBE_COLOUR,
    TRIBES,
    CampCard,
    Cell,
    card_rules,
)
from companion.games.first_island.scoring import Layout, score_board
from companion.games.first_island.solo import solo_report
from companion.games.first_island.state import (
    Advance,
    DealTableCard,
    Finish,
    Mark,
    Options,
    PlayerBoard,
    Reroll,
    ScoreCampCard,
    SkipCampCard,
    State,
)


class FirstIsland:
    name = "first-island"
    title = "The First Island"
    min_players = 1
    max_players = 6
    actions: ClassVar[dict[str, type]] = {
        cls.type: cls
        for cls in (
            Mark,
            Reroll,
            ScoreCampCard,
            SkipCampCard,
            DealTableCard,
            Advance,
            Finish,
        )
    }
    faces: ClassVar[dict[int, dict]] = {
        v: {"tribe": t, "colour": TRIBE_COLOUR[t]} for v, t in FACE_TRIBE.items()
    }

    def setup(self, players: int, options: Mapping[str, Any]) -> State:
        return rules.setup(players, options)

    def dice(self, state: State) -> DiceSpec | None:
        return rules.dice(state)

    def reroll_dice(self, state: State) -> DiceSpec | None:
        """The tribe dice, whenever a reroll would be accepted now (``rules.reroll_problem``):
        a camera reads a reroll's faces as it reads a roll's. Its ``showing`` is the roll
        the players are marking."""
        if rules.reroll_problem(state) is not None:
            return None
        return dataclasses.replace(rules.TRIBE_DICE, showing=tuple(state.roll or ()))

    def apply(self, state: State, action: Any) -> State:
        return rules.apply(state, action)

    # -- what can be done now ----------------------------------------------------
    def legal_actions(self, state: State, seat: int | None) -> list:
        """Every legal action of ``seat`` (None: the table), rolls aside.

        The table's actions are the round button and, when an S card must be
        dealt, each S card value. Camp claims are listed once per camp (one
        contiguous choice of the card's size), not every subset: ``apply``
        accepts any valid claim. The host's Finish is always legal and not listed.
        """
        if state.ended:
            return []
        if seat is None:
            table: list = [Advance()] if state.phase == "done" else []
            if state.options.camp_cards and state.table is None and not state.table_spent:
                points = card_rules(state.options.card_variant).table_points
                table.extend(DealTableCard(p) for p in sorted(set(points)))
            return table
        out: list = []
        board = state.boards[seat]
        if state.phase == "mark" and not state.seat_done(seat):
            out.extend(_marks(state, board, seat))
        if state.options.camp_cards and board.hand is not None:
            out.append(SkipCampCard(seat))
        if state.options.camp_cards and state.phase in ("roll", "done"):
            out.extend(_claims(state, board, seat))
        return out

    def outcome(self, state: State) -> Outcome | None:
        if not state.ended:
            return None
        totals = tuple(s["total"] for s in self.score(state))
        if state.solo:
            winners = (0,) if self.score(state)[0]["solo"]["passed"] else ()
        else:
            best = max(totals)
            winners = tuple(i for i, t in enumerate(totals) if t == best)
        return Outcome(state.ended, winners, totals)

    def score(self, state: State) -> list[dict]:
        """Each seat's score area (see scoring.score_board), plus solo targets when solo."""
        out = []
        for board in state.boards:
            b = score_board(
                state.island,
                board.cells,
                board.claimed,
                len(board.overrides),
                [c.points for c in board.scored_cards],
            )
            if state.solo:
                b["solo"] = solo_report(
                    state.options.difficulty or "standard",
                    b,
                    len(board.scored_cards),
                    len(board.overrides),
                )
            out.append(b)
        return out

    def player_view(self, state: State, seat: int | None) -> dict:
        """Everything on the table is public in this game: the state plus each score."""
        view = self.state_to_json(state)
        view["phase"] = state.phase
        view["roll_tribes"] = None if state.roll is None else [FACE_TRIBE[v] for v in state.roll]
        view["scores"] = self.score(state)
        view["seat"] = seat
        view["reroll_allowed"] = rules.reroll_problem(state) is None
        view["overrides_allowed"] = state.options.overrides_allowed
        view["max_overrides"] = rules.MAX_OVERRIDES
        view["table_actions"] = [action_to_json(a) for a in self.legal_actions(state, None)]
        return view

    def export_board(self, state: State, seat: int) -> dict:
        """Seat's board in the board-file format."""
        b = state.boards[seat]
        return board_to_json(
            state.island,
            dict(b.cells),
            b.claimed,
            len(b.overrides),
            [c.points for c in b.scored_cards],
        )

    # -- JSON --------------------------------------------------------------------
    def state_to_json(self, state: State) -> dict:
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
            "table": _card_json(state.table),
            "table_scored_by": sorted(state.table_scored_by),
            "table_spent": state.table_spent,
            "ended": state.ended,
            "boards": [_board_json(b) for b in state.boards],
        }

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return State(
            players=data["players"],
            island=Island(tuple(h) for h in data["island"]),
            options=Options(**data["options"]),
            boards=tuple(_board_from_json(b) for b in data["boards"]),
            round=data["round"],
            roll=None if data["roll"] is None else tuple(data["roll"]),
            rerolled=data["rerolled"],
            table=_card_from_json(data["table"]),
            table_scored_by=frozenset(data["table_scored_by"]),
            table_spent=data["table_spent"],
            ended=data["ended"],
        )


def _marks(state: State, board: PlayerBoard, seat: int) -> list[Mark]:
    free_dice = [d for d in range(1, 6) if d not in board.dice_used]
    picks: list[tuple] = list(itertools.permutations(free_dice, 2))
    if (
        state.options.overrides_allowed
        and not board.override_this_turn
        and len(board.overrides) < rules.MAX_OVERRIDES
    ):
        for tribe in TRIBES:
            if tribe not in board.overrides:
                picks += [(d, tribe) for d in free_dice]
    assert state.roll is not None
    out = []
    empty = sorted(h for h in state.island.hexes if h not in board.cells)
    for pick in picks:
        tribes = [p if isinstance(p, str) else FACE_TRIBE[state.roll[p - 1]] for p in pick]
        if tribes[0] == tribes[1]:
            if isinstance(pick[0], int) and isinstance(pick[1], int) and pick[0] > pick[1]:
                continue  # the same large placement as the other order
            out.extend(Mark(seat, h, pick) for h in empty)
        else:
            out.extend(Mark(seat, h, pick, axis) for h in empty for axis in range(3))
    return out


def _claims(state: State, board: PlayerBoard, seat: int) -> list[ScoreCampCard]:
    layout = Layout(state.island, board.cells)
    out = []
    cards = [("hand", board.hand)]
    if state.table is not None and seat not in state.table_scored_by:
        cards.append(("table", state.table))
    for which, card in cards:
        if card is None:
            continue
        for camp in layout.camps(board.claimed):
            if camp.claimed or len(camp.placements) < card.size:
                continue
            order, seen = [min(camp.placements)], {min(camp.placements)}
            i = 0
            while len(order) < card.size:  # breadth-first: every prefix is contiguous
                for nxt in sorted(layout.adjacent[order[i]] & camp.placements):
                    if nxt not in seen:
                        seen.add(nxt)
                        order.append(nxt)
                i += 1
            out.append(ScoreCampCard(seat, which, tuple(order[: card.size])))
    return out


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
    )


GAME = register(FirstIsland())

__all__ = ["GAME", "FirstIsland"]

"""The First Island's legal actions, listed (the conformance test and the bench play from
them; ``rules.apply`` is what decides)."""

from __future__ import annotations

import itertools

from companion.games.first_island import rules
from companion.games.first_island.model import FACE_TRIBE, TRIBES, card_rules
from companion.games.first_island.scoring import Layout
from companion.games.first_island.shapes import catalogue
from companion.games.first_island.state import (
    Advance,
    DealTableCard,
    KeepRoll,
    Mark,
    PlayerBoard,
    ScoreCampCard,
    SkipCampCard,
    State,
)


def legal_actions(state: State, seat: int | None) -> list:
    """Every legal action of ``seat`` (None: the table), rolls aside.

    The table's actions are the round button and, when an S card must be
    dealt, each S card value. Camp claims are listed once per camp (one
    contiguous choice of the card's size), not every subset: ``apply``
    accepts any valid claim. The host's Finish is always legal and not listed.
    """
    if state.ended:
        return []
    if seat is None:
        button = state.phase == "done" or (state.ending and state.phase == "roll")
        table: list = [Advance()] if button else []
        if state.s_card_due:
            points = card_rules(state.options.card_variant).table_points
            table.extend(DealTableCard(p) for p in sorted(set(points)))
        return table
    out: list = []
    board = state.boards[seat]
    reroll_open = rules.reroll_problem(state) is None
    if reroll_open and seat == state.roller:
        out.append(KeepRoll(seat))
    # while the roller may reroll, the others wait for their choice
    waits = reroll_open and seat != state.roller
    if state.phase == "mark" and not state.seat_done(seat) and not waits:
        out.extend(_marks(state, board, seat))
    if state.options.camp_cards and board.hand is not None:
        out.append(SkipCampCard(seat))
    if state.options.camp_cards and state.phase in ("roll", "done") and not board.card_this_round:
        out.extend(_claims(state, board, seat))
    return out


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
        if card is None or catalogue().get(card.deck):
            continue  # (a deck with shapes: a claim names its card; apply decides)
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

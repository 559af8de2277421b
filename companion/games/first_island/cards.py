"""Camp cards: scoring a card by claiming a camp, skipping, and dealing the S card.

Readings kept here:
- Cards are scored "before the dice are rolled": while a round has no roll yet,
  or once everyone has marked the current roll (that is before the next roll).
- A card of deck 4, 5 or 6 is replaced by drawing 2 from the next-lower deck and
  keeping 1; every card of a deck asks the same size and points, so the device
  knows the kept card without being told. The lowest deck in play refills from
  itself.
- The device checks a claimed camp's size, single tribe and contiguity; its shape only
  where the card catalogue holds the shapes of the card's deck (shapes.py), and then
  the claim names its card.
- Each player scores one card a round, "either the card in their hand or the one on
  the table": the card drawn to replace a scored one waits for the next round.
- The S card may be scored by several players; it is discarded at the next roll.
- A player's third card ends a multiplayer game when that round's scoring is over
  (the button), so that the others may score theirs in it too ("the S cards may be
  completed by more than 1 player at the same time"). The solo game ignores it (it
  asks for 3 or 4 cards) and ends after 12 rounds.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.errors import IllegalAction
from companion.games.first_island.model import card_rules, deck_card, table_card, tribe_name
from companion.games.first_island.scoring import Layout
from companion.games.first_island.shapes import camp_shape, catalogue, matches
from companion.games.first_island.state import (
    DealTableCard,
    PlayerBoard,
    ScoreCampCard,
    SkipCampCard,
    State,
)


def _cards_on(state: State) -> None:
    if not state.options.camp_cards:
        raise IllegalAction("this game is played without camp cards", code="cards/off")


def _board(state: State, seat: Any) -> PlayerBoard:
    from companion.games.first_island.rules import _check_seat

    _check_seat(state, seat)
    return state.boards[seat]


def _parse_camp(camp: Any) -> tuple[tuple[int, int, int], ...]:
    ok = (
        isinstance(camp, tuple)
        and camp
        and all(
            isinstance(p, tuple)
            and len(p) == 3
            and all(isinstance(c, int) for c in p)
            and p[2] in (0, 1)
            for p in camp
        )
    )
    if not ok:
        raise IllegalAction(
            f"a camp is a list of placements [q, r, half] (half 0 or 1), not {camp!r}",
            code="cards/bad_camp",
        )
    return camp


def check_camp(state: State, seat: int, camp: tuple, size: int) -> None:
    """Raise IllegalAction unless ``camp`` is an unclaimed camp of ``size`` on seat's board."""
    board = state.boards[seat]
    layout = Layout(state.island, board.cells)
    if len(set(camp)) != len(camp):
        raise IllegalAction("the claimed camp names a placement twice", code="cards/bad_camp")
    for q, r, half in camp:
        if (q, r, half) not in layout.tribe:
            raise IllegalAction(
                f"hex ({q},{r}) holds no placement {half} on seat {seat + 1}'s board",
                code="cards/bad_camp",
            )
    claimed = {p for group in board.claimed for p in group}
    for p in camp:
        if p in claimed:
            raise IllegalAction(
                f"placement ({p[0]},{p[1]}) half {p[2]} is already part of a scored camp",
                code="cards/already_claimed",
            )
    tribes = {layout.tribe[p] for p in camp}
    if len(tribes) > 1:
        names = ", ".join(sorted(tribe_name(t) for t in tribes))
        raise IllegalAction(
            f"a camp holds one tribe; this claim mixes {names}", code="cards/mixed_camp"
        )
    if not layout.connected(camp):
        raise IllegalAction(
            "the claimed placements are not one contiguous camp", code="cards/not_contiguous"
        )
    if len(camp) != size:
        raise IllegalAction(
            f"this card needs a camp of {size} placements; the claim has {len(camp)}",
            code="cards/wrong_size",
        )


def check_shape(state: State, seat: int, camp: tuple, card, name: Any) -> None:
    """Where the catalogue holds the shapes of ``card``'s deck: raise IllegalAction unless
    ``name`` is one of its cards and ``camp`` has that card's shape (turned or mirrored)."""
    shapes = catalogue().get(card.deck, {})
    if not shapes:
        if name is not None:
            raise IllegalAction(
                f"the catalogue holds no shapes of the {card.deck} deck: claim the camp "
                "without naming the card",
                code="cards/no_shapes",
            )
        return
    if name not in shapes:
        raise IllegalAction(
            f"name the card being scored: one of {', '.join(sorted(shapes))} "
            f"(the {card.deck} deck's cards in the catalogue), not {name!r}",
            code="cards/which_card",
        )
    if not matches(shapes[name], camp_shape(state.boards[seat].cells, camp)):
        raise IllegalAction(
            f"the claimed camp does not have the shape of card {name!r} (turned or mirrored "
            "as need be)",
            code="cards/wrong_shape",
        )


def score_camp_card(state: State, action: ScoreCampCard) -> State:
    _cards_on(state)
    board = _board(state, action.seat)
    if state.phase == "mark":
        raise IllegalAction(
            f"camp cards are scored before the dice are rolled; round {state.round} is "
            "already rolled and not everyone has marked",
            code="cards/not_now",
        )
    if action.card == "hand":
        card = board.hand
        if card is None:
            raise IllegalAction(
                f"seat {action.seat + 1} has no camp card in hand", code="cards/no_card"
            )
    elif action.card == "table":
        card = state.table
        if card is None:
            raise IllegalAction("there is no S card on the table", code="cards/no_card")
        if action.seat in state.table_scored_by:
            raise IllegalAction(
                f"seat {action.seat + 1} has already scored this S card",
                code="cards/already_scored",
            )
    else:
        raise IllegalAction(
            f"card must be 'hand' or 'table', not {action.card!r}", code="cards/bad_card"
        )
    if board.card_this_round:
        raise IllegalAction(
            f"seat {action.seat + 1} has scored a camp card this round: one a round, the card "
            "in hand or the S card; the next waits for the next round",
            code="cards/one_a_round",
        )
    camp = _parse_camp(action.camp)
    check_camp(state, action.seat, camp, card.size)
    check_shape(state, action.seat, camp, card, action.shape)
    hand = board.hand
    if action.card == "hand":
        rules = card_rules(state.options.card_variant)
        hand = deck_card(rules.replacement_deck(card.deck))
    board = replace(
        board,
        claimed=(*board.claimed, camp),
        scored_cards=(*board.scored_cards, card),
        hand=hand,
        card_this_round=True,
    )
    state = state.with_board(action.seat, board)
    if action.card == "table":
        state = replace(state, table_scored_by=state.table_scored_by | {action.seat})
    return state


def skip_camp_card(state: State, action: SkipCampCard) -> State:
    _cards_on(state)
    board = _board(state, action.seat)
    if board.hand is None:
        raise IllegalAction(
            f"seat {action.seat + 1} has no camp card in hand", code="cards/no_card"
        )
    rules = card_rules(state.options.card_variant)
    return state.with_board(
        action.seat, replace(board, hand=deck_card(rules.replacement_deck(board.hand.deck)))
    )


def deal_table_card(state: State, action: DealTableCard) -> State:
    _cards_on(state)
    rules = card_rules(state.options.card_variant)
    if state.table is not None:
        raise IllegalAction(
            f"the S card on the table ({state.table}) has not been discarded",
            code="cards/table_full",
        )
    if state.table_spent:
        raise IllegalAction(
            "this game has a single S card, and it was scored", code="cards/no_card"
        )
    if action.points not in rules.table_points:
        raise IllegalAction(
            f"this game's S cards are worth {', '.join(map(str, sorted(set(rules.table_points))))}"
            f" points, not {action.points!r}",
            code="cards/bad_card",
        )
    return replace(state, table=table_card(action.points))

"""Camp cards: dealing, scoring by claiming a camp, the next-lower deck, the S card, skipping."""

import pytest

from companion.errors import IllegalAction
from companion.games.first_island.model import CampCard
from companion.games.first_island.state import (
    Advance,
    DealTableCard,
    Mark,
    ScoreCampCard,
    SkipCampCard,
)
from tests.helpers import roll
from tests.unit.test_first_island_rules import play, rejected

BUILDERS = roll(2, 2, 2, 2, 1)  # four Builder dice and one Scavenger
# Six large Builder hexes in a row through the middle of the default island.
ROW = [(-2, 1), (-1, 1), (0, 1), (1, 1), (2, 1), (-2, 2)]


def builder_rounds(game, state, seats, hexes):
    """Mark two large Builder hexes per round for every seat, rolling first (the roll could
    be rerolled: the roller marks first, keeping it)."""
    for i in range(0, len(hexes), 2):
        state = game.apply(state, BUILDERS)
        for seat in sorted(seats, key=lambda s: s != state.roller):
            state = play(
                game, state, Mark(seat, hexes[i], (1, 2)), Mark(seat, hexes[i + 1], (3, 4))
            )
        state = game.apply(state, Advance())
    return state


def camp(*hexes):
    return tuple((q, r, 0) for q, r in hexes)


def test_setup_deals_a_6_card_to_each_hand(first_island):
    s = first_island.setup(3, {})
    assert all(b.hand == CampCard("6", 6, 12) for b in s.boards)
    assert s.table is None  # standard S cards differ in points: the dealt one is told


def test_easy_variant_deals_4_cards_and_no_6_point_s_card(first_island):
    s = first_island.setup(2, {"variant": "easy"})
    assert s.boards[0].hand == CampCard("4", 4, 8)
    rejected(first_island, s, DealTableCard(6), "cards/bad_card", "worth 4, 5 points")
    assert first_island.apply(s, DealTableCard(5)).table == CampCard("S", 5, 5)


def test_single_value_s_decks_deal_themselves(first_island):
    assert first_island.setup(1, {"difficulty": "casual"}).table == CampCard("S", 4, 4)
    assert first_island.setup(1, {"difficulty": "hard"}).table == CampCard("S", 5, 5)
    s = first_island.setup(1, {"difficulty": "impossible"})
    assert (s.table, s.boards[0].hand) == (CampCard("S", 6, 6), CampCard("6", 6, 12))


def test_scoring_the_hand_card_claims_the_camp_and_draws_from_the_next_lower_deck(first_island):
    s = builder_rounds(first_island, first_island.setup(1, {"s_card": 4}), [0], ROW[:6])
    s = first_island.apply(s, ScoreCampCard(0, "hand", camp(*ROW)))
    b = s.boards[0]
    assert b.scored_cards == (CampCard("6", 6, 12),)
    assert b.hand == CampCard("5", 5, 10)
    assert b.claimed == (camp(*ROW),)
    assert first_island.score(s)[0]["camp_cards"] == 12
    s = builder_rounds(first_island, s, [0], [(-2, -1), (-1, -1)])  # the next round
    rejected(
        first_island,
        s,
        ScoreCampCard(0, "hand", camp(*ROW[:5])),
        "cards/already_claimed",
        "already part of a scored camp",
    )


def test_one_camp_card_a_round_the_hand_card_or_the_s_card(first_island):
    # "each player may score either the card in their hand or the one on the table": a
    # player scored the hand card, then the S card, then the hand card's replacement, all
    # before one roll
    s = builder_rounds(first_island, first_island.setup(1, {"s_card": 4}), [0], ROW[:6])
    s = first_island.apply(s, ScoreCampCard(0, "table", camp(*ROW[:4])))
    rejected(
        first_island,
        s,
        ScoreCampCard(0, "hand", camp(*ROW[:6])),
        "cards/one_a_round",
        "one a round",
    )
    assert first_island.legal_actions(s, 0) == [SkipCampCard(0)]  # no claim listed either


def test_a_claim_must_match_the_card_size_and_be_one_contiguous_tribe(first_island):
    s = builder_rounds(first_island, first_island.setup(1, {"s_card": 4}), [0], ROW[:6])
    rejected(
        first_island,
        s,
        ScoreCampCard(0, "hand", camp(*ROW[:5])),
        "cards/wrong_size",
        "needs a camp of 6 placements; the claim has 5",
    )
    s = first_island.apply(s, SkipCampCard(0))  # now a 5 card
    gap = camp(ROW[0], ROW[1], ROW[3], ROW[4], ROW[5])  # (0,1) left out: not contiguous
    rejected(
        first_island,
        s,
        ScoreCampCard(0, "hand", gap),
        "cards/not_contiguous",
        "not one contiguous camp",
    )
    rejected(
        first_island,
        s,
        ScoreCampCard(0, "hand", camp(*ROW[:4], (3, 0))),
        "cards/bad_camp",
        "hex (3,0) holds no placement",
    )
    rejected(
        first_island,
        s,
        ScoreCampCard(0, "hand", "everything"),
        "cards/bad_camp",
        "list of placements",
    )


def test_cards_are_scored_before_the_roll_not_after(first_island):
    s = builder_rounds(first_island, first_island.setup(1, {"s_card": 4}), [0], ROW[:6])
    s = first_island.apply(s, BUILDERS)
    rejected(
        first_island,
        s,
        ScoreCampCard(0, "hand", camp(*ROW)),
        "cards/not_now",
        "before the dice are rolled",
    )


def test_skipping_draws_from_the_next_lower_deck_and_the_4_deck_refills_itself(first_island):
    s = first_island.setup(2, {})
    s = play(first_island, s, SkipCampCard(0))
    assert s.boards[0].hand == CampCard("5", 5, 10)
    s = play(first_island, s, SkipCampCard(0), SkipCampCard(0))
    assert s.boards[0].hand == CampCard("4", 4, 8)
    assert s.boards[1].hand == CampCard("6", 6, 12)


def test_the_s_card_is_shared_and_discarded_at_the_next_roll(first_island):
    s = first_island.apply(first_island.setup(2, {}), DealTableCard(4))
    rejected(first_island, s, DealTableCard(5), "cards/table_full", "has not been discarded")
    s = builder_rounds(first_island, s, [0, 1], ROW[:4])
    s = play(first_island, s, ScoreCampCard(0, "table", camp(*ROW[:4])))
    rejected(
        first_island,
        s,
        ScoreCampCard(0, "table", camp(*ROW[:4])),
        "cards/already_scored",
        "already scored this S card",
    )
    s = play(first_island, s, ScoreCampCard(1, "table", camp(*ROW[:4])))
    assert s.table_scored_by == {0, 1}
    assert [b.scored_cards for b in s.boards] == [(CampCard("S", 4, 4),)] * 2
    s = first_island.apply(s, BUILDERS)
    assert s.table is None and s.table_scored_by == frozenset()
    assert first_island.apply(s, DealTableCard(6)).table == CampCard("S", 6, 6)


def test_a_single_s_card_is_not_replaced(first_island):
    s = builder_rounds(first_island, first_island.setup(1, {"difficulty": "hard"}), [0], ROW[:6])
    s = play(first_island, s, ScoreCampCard(0, "table", camp(*ROW[:5])), BUILDERS)
    assert s.table is None and s.table_spent
    rejected(first_island, s, DealTableCard(5), "cards/no_card", "single S card")


def test_a_third_card_ends_the_game_once_that_rounds_scoring_is_over(first_island):
    # "At this point, if any player has scored their third camp, the game ends", and "the S
    # cards may be completed by more than 1 player at the same time": two identical boards
    # complete their third card before the same roll. The game used to end on the first one
    # scored, 20 camp card points to 12; they tie.
    s = first_island.setup(2, {"variant": "easy", "s_card": 4})  # 4-point cards: size 4
    hexes = [
        (-2, 1),
        (-1, 1),
        (0, 1),
        (1, 1),
        (-2, -1),
        (-1, -1),
        (0, -1),
        (1, -1),
        (-1, 3),
        (0, 2),
        (1, 2),
        (-2, 3),
    ]
    s = builder_rounds(first_island, s, [0, 1], hexes[:4])
    s = play(first_island, s, *(ScoreCampCard(p, "hand", camp(*hexes[0:4])) for p in (0, 1)))
    s = builder_rounds(first_island, s, [0, 1], hexes[4:8])
    s = play(first_island, s, *(ScoreCampCard(p, "table", camp(*hexes[4:8])) for p in (0, 1)))
    s = builder_rounds(first_island, s, [0, 1], hexes[8:10])  # its roll discards the S card
    s = play(first_island, s, DealTableCard(5))  # the next S card, due before the next roll
    s = builder_rounds(first_island, s, [0, 1], hexes[10:12])
    s = first_island.apply(s, ScoreCampCard(0, "hand", camp(*hexes[8:12])))
    assert not s.ended and s.ending  # Bo may still score his in this round
    assert first_island.dice(s) is None
    rejected(first_island, s, BUILDERS, "action/game_ending", "press the button to end it")
    s = first_island.apply(s, ScoreCampCard(1, "hand", camp(*hexes[8:12])))
    assert first_island.button(s).label == "End the game"
    s = first_island.apply(s, first_island.button(s).action)
    assert s.ended == "a third camp card was scored"
    assert [a["camp_cards"] for a in first_island.score(s)] == [8 + 4 + 8] * 2
    assert first_island.outcome(s).winners == (0, 1)


def test_the_s_card_is_told_before_the_next_roll(first_island):
    # A game started with no S card on the table, and went on without one after it was
    # scored, until someone happened to deal one.
    s = first_island.setup(2, {})  # standard S cards differ in points: which was turned up?
    assert s.s_card_due and first_island.dice(s) is None
    rejected(first_island, s, BUILDERS, "cards/s_card_due", "turn up the S card")
    assert first_island.to_act(s).table and first_island.to_act(s).seats == ()
    s = first_island.apply(s, DealTableCard(6))
    assert not s.s_card_due and first_island.dice(s).count == 5
    told = first_island.setup(2, {"s_card": 5})  # or told at setup
    assert told.table == CampCard("S", 5, 5) and not told.s_card_due
    with pytest.raises(IllegalAction, match="worth 4, 5 points in this game, not 6"):
        first_island.setup(2, {"variant": "easy", "s_card": 6})


def test_without_camp_cards(first_island):
    s = first_island.setup(2, {"camp_cards": False})
    assert s.boards[0].hand is None
    rejected(first_island, s, SkipCampCard(0), "cards/off", "without camp cards")


@pytest.mark.parametrize("card", ["deck", ""])
def test_card_must_be_hand_or_table(first_island, card):
    with pytest.raises(IllegalAction, match="'hand' or 'table'"):
        first_island.apply(
            first_island.setup(1, {"s_card": 4}), ScoreCampCard(0, card, camp((0, 0)))
        )

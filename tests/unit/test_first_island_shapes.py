"""Camp card shapes: a camp matches a card's shape turned any direction and mirrored, and a
claim is checked against the catalogue's shape where the catalogue holds its deck's."""

import pytest

from companion.games.first_island import cards, legal
from companion.games.first_island.shapes import matches, parse_shape
from companion.games.first_island.state import ScoreCampCard
from tests.unit.test_first_island_cards import ROW, builder_rounds, camp
from tests.unit.test_first_island_rules import rejected


def shape(*items):
    return parse_shape([list(i) for i in items], "test")


LINE = shape((0, 0), (0, 1), (0, 2), (0, 3))  # four large placements in a row
HOOK = shape((0, 0), (1, 0), (2, 0), (2, -1))
BEND = shape((0, 0), (1, 0), (1, 1), (2, 1))


def test_a_shape_turned_or_mirrored_still_matches():
    assert matches(LINE, shape((5, -2), (6, -2), (7, -2), (8, -2)))  # another direction
    mirrored = shape((0, 0), (0, 1), (0, 2), (-1, 2))  # (q, r) -> (r, q)
    assert matches(HOOK, mirrored)
    half_then_large = shape((0, 0, 0, 0), (1, 0))  # a half whose edge faces its neighbour
    assert matches(half_then_large, shape((3, 3, 0, 1), (2, 3)))  # turned halfway round


def test_different_shapes_do_not_match():
    assert not matches(LINE, HOOK)
    assert not matches(HOOK, BEND)
    assert not matches(LINE, shape((0, 0), (0, 1), (0, 2)))  # one placement short
    # a half beside its neighbour by an edge it owns is not one facing it with the other half
    assert not matches(shape((0, 0, 0, 0), (1, 0)), shape((0, 0, 0, 0), (-1, 0)))


def test_a_bad_catalogue_shape_is_named():
    with pytest.raises(ValueError, match=r"card 'x': a placement is \[q, r\]"):
        parse_shape([[0, 0, 3, 0]], "card 'x'")


@pytest.fixture
def shapes(monkeypatch):
    """A catalogue whose 4 deck's shapes are filled in: a straight line, and a hook."""
    catalogue = {"4": {"line": LINE, "hook": HOOK}}
    monkeypatch.setattr(cards, "catalogue", lambda: catalogue)
    monkeypatch.setattr(legal, "catalogue", lambda: catalogue)


def test_with_the_shapes_filled_in_a_claim_names_its_card_and_has_its_shape(first_island, shapes):
    s = first_island.setup(2, {"variant": "easy", "s_card": 4})  # 4-deck cards in hand
    s = builder_rounds(first_island, s, [0, 1], ROW[:4])
    rejected(
        first_island, s, ScoreCampCard(0, "hand", camp(*ROW[:4])), "cards/which_card", "hook, line"
    )
    hook = ScoreCampCard(0, "hand", camp(*ROW[:4]), shape="hook")
    rejected(first_island, s, hook, "cards/wrong_shape", "shape of card 'hook'")
    scored = first_island.apply(s, ScoreCampCard(0, "hand", camp(*ROW[:4]), shape="line"))
    assert scored.boards[0].scored_cards[-1].points == 8
    # the S deck has no shapes filled in: its claims name no card, as before
    s_card = ScoreCampCard(0, "table", camp(*ROW[:4]), shape="line")
    rejected(first_island, s, s_card, "cards/no_shapes", "holds no shapes of the S deck")


def test_without_shapes_the_players_check_them(first_island):
    s = builder_rounds(
        first_island, first_island.setup(2, {"variant": "easy", "s_card": 5}), [0, 1], ROW[:4]
    )
    assert first_island.apply(s, ScoreCampCard(0, "hand", camp(*ROW[:4]))).boards[0].scored_cards

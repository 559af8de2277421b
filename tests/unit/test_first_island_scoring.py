"""The First Island's score area, and each reading of an ambiguous rule (scoring.py)."""

from companion.games.first_island.hexgrid import Island, default_island
from companion.games.first_island.model import TRIBES
from companion.games.first_island.scoring import Layout, score_board
from tests.helpers import cells, large, split

ISLAND = default_island()


def test_empty_board_scores_minus_5_per_tribe():
    b = score_board(ISLAND, {})
    assert b["total"] == -30
    assert all(
        b["tribes"][t]
        == {
            "placements": 0,
            "scorable": 0,
            "base": -5,
            "request": 0,
            "detail": b["tribes"][t]["detail"],
        }
        for t in TRIBES
    )


def test_a_tribe_without_a_camp_scores_minus_5_and_minus_1_per_stray():
    # Two Healers side by side: no camp (a camp needs 3), so -2 - 5.
    b = score_board(ISLAND, cells(large(0, 0, "healers"), large(1, 0, "healers")))
    assert b["tribes"]["healers"]["scorable"] == 0
    assert b["tribes"]["healers"]["base"] == -7


def test_three_contiguous_placements_make_a_camp():
    b = score_board(
        ISLAND,
        cells(
            large(0, 0, "healers"),
            large(1, 0, "healers"),
            large(2, 0, "healers"),
            large(-2, 2, "healers"),
        ),
    )
    # (-2,2) touches none of the others: 3 in the camp, 1 stray.
    h = b["tribes"]["healers"]
    assert (h["placements"], h["scorable"], h["base"]) == (4, 3, 2)


def test_touching_at_a_corner_only_is_not_adjacent():
    # Split (0,0) on axis 0: half 0 owns edges 0,1,2, half 1 edges 3,4,5.
    # (1,0) lies beyond edge 0, so it touches half 0 and only a corner of half 1.
    layout = Layout(ISLAND, cells(split(0, 0, 0, "scholars", "builders"), large(1, 0, "builders")))
    assert (1, 0, 0) in layout.adjacent[(0, 0, 0)]
    assert (1, 0, 0) not in layout.adjacent[(0, 0, 1)]


def test_scholars_are_next_to_scavengers_across_the_split_line():
    board = cells(
        split(0, 0, 0, "scholars", "scavengers"),
        large(1, 0, "scholars"),
        large(2, 0, "scholars"),
        large(-1, 0, "scavengers"),
        large(-2, 0, "scavengers"),
    )
    b = score_board(ISLAND, board)
    assert b["tribes"]["scholars"]["detail"] == {"next_to_scavengers": 1, "on_coast": 0}
    assert b["tribes"]["scholars"]["request"] == 1


def test_requests_count_scorable_placements_only():
    # The same Scholar next to a Scavenger, but the Scavengers form no camp.
    board = cells(
        split(0, 0, 0, "scholars", "scavengers"),
        large(1, 0, "scholars"),
        large(2, 0, "scholars"),
        large(-1, 0, "scavengers"),
    )
    b = score_board(ISLAND, board)
    assert b["tribes"]["scholars"]["request"] == 0
    assert b["tribes"]["scavengers"]["request"] == 0


def test_outside_edge_means_an_edge_with_no_island_hex_beyond_it():
    # (-3,0) is not on the default island, so edge 3 of (-2,0) faces the sea.
    assert ISLAND.coast[(-2, 0)] == frozenset({3})
    board = cells(
        split(-2, 0, 0, "builders", "scavengers"),  # half 1 (edges 3,4,5) reaches the sea
        large(-2, 1, "scavengers"),
        large(-1, 1, "scavengers"),
        large(-1, 0, "builders"),
        large(0, 0, "builders"),
    )
    layout = Layout(ISLAND, board)
    assert layout.on_coast((-2, 0, 1)) and not layout.on_coast((-2, 0, 0))
    b = score_board(ISLAND, board)
    assert b["tribes"]["scavengers"]["detail"]["on_coast"] == 1
    assert b["tribes"]["scavengers"]["request"] == 1


def test_scholars_lose_2_per_scorable_placement_on_the_coast():
    # (-2,0), (-2,-1) and (-1,-2) are all on the coast of the default island.
    board = cells(large(-2, 0, "scholars"), large(-2, -1, "scholars"), large(-1, -1, "scholars"))
    b = score_board(ISLAND, board)
    assert b["tribes"]["scholars"]["detail"]["on_coast"] == 2
    assert b["tribes"]["scholars"]["request"] == -4


def test_builders_score_3_per_hex_holding_only_a_large_scorable_builder():
    board = cells(
        large(0, 0, "builders"), large(1, 0, "builders"), split(2, 0, 0, "scientists", "builders")
    )
    b = score_board(ISLAND, board)
    assert b["tribes"]["builders"]["detail"]["large_hexes"] == 2
    assert b["tribes"]["builders"]["request"] == 6


def test_matriarchy_scores_its_largest_camp_again():
    line4 = [large(q, 0, "matriarchy") for q in (-1, 0, 1, 2)]
    line3 = [large(q, 2, "matriarchy") for q in (-2, -1, 0)]
    b = score_board(ISLAND, cells(*line4, *line3))
    m = b["tribes"]["matriarchy"]
    assert (m["scorable"], m["base"], m["request"]) == (7, 7, 4)


def test_healers_score_2_per_other_tribe_sharing_a_hex():
    # Healers camp: (0,0) half 0, (1,0), and half 1 of (1,-1) (edges 4,5,0 face both).
    board = cells(
        split(0, 0, 0, "healers", "matriarchy"),
        large(1, 0, "healers"),
        split(1, -1, 1, "scientists", "healers"),
        large(-1, 0, "matriarchy"),
        large(-1, 1, "matriarchy"),
    )
    # Scientists (1 placement) are not scorable, so they do not count for the Healers.
    b = score_board(ISLAND, board)
    assert b["tribes"]["healers"]["detail"]["share_hex_with"] == ["matriarchy"]
    assert b["tribes"]["healers"]["request"] == 2


def test_scientists_score_2_per_camp():
    board = cells(
        *(large(q, 0, "scientists") for q in (-1, 0, 1)),
        *(large(q, 2, "scientists") for q in (-2, -1, 0)),
    )
    assert score_board(ISLAND, board)["tribes"]["scientists"]["request"] == 4


def test_a_claimed_camp_is_cut_off_from_the_placements_around_it():
    line = [large(q, 0, "builders") for q in (-2, -1, 0, 1, 2)]
    whole = score_board(ISLAND, cells(*line))["tribes"]["builders"]
    assert (whole["scorable"], whole["base"]) == (5, 5)
    claimed = [[(-2, 0, 0), (-1, 0, 0), (0, 0, 0), (1, 0, 0)]]
    cut = score_board(ISLAND, cells(*line), claimed)["tribes"]["builders"]
    # (2,0) is left alone: a stray of one, though it touches the claimed camp.
    assert (cut["scorable"], cut["base"]) == (4, 3)


def test_overrides_and_camp_cards_enter_the_total():
    b = score_board(ISLAND, {}, overrides_used=2, camp_cards=[8, 10])
    assert (b["overrides"], b["camp_cards"], b["total"]) == (-2, 18, -30 - 2 + 18)


def test_a_custom_map_changes_the_coast():
    island = Island([(0, 0), (1, 0), (2, 0)])
    b = score_board(island, cells(*(large(q, 0, "scavengers") for q in range(3))))
    assert b["tribes"]["scavengers"]["request"] == 3

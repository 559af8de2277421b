"""My Island's worked examples and rulings (docs/my-island.md), each an island built to
reproduce the rulebook's figures.

The rulebook's pictures are lost; each island here is one that fits its words. Squares are
named by column letter and row ("D4"); tiles by their code (tiles.py).
"""

import pytest

from companion.engine.game import DiceRolled, get_game
from companion.errors import IllegalAction
from companion.games.my_island import rules, scoring
from companion.games.my_island.board import Board
from companion.games.my_island.state import Confirm, Place, Placed, Rules
from companion.games.my_island.tiles import Tile

GAME = get_game("my-island")
P, Q = 0, 1  # the player who plays the tile, and another


def island(rules_, tiles):
    """{square name: (code, owner)} as the island scoring reads it."""
    board = rules_.board
    return {
        board.parse(name): Placed(
            Tile.from_code(code),
            0 if owner is None else owner,
            owner,
            "water" if code == "WATER" else "play",
        )
        for name, (code, owner) in tiles.items()
    }


def score(rules_, tiles, where, code):
    land = island(rules_, tiles)
    sq = rules_.board.parse(where)
    return scoring.placement_entries(rules_, land, P, sq, Tile.from_code(code))


def by_key(entries):
    out = {}
    for e in entries:
        out.setdefault(e.key, []).append(e.points)
    return out


RULES = Rules(Board.standard(4))
PORTS = Rules(Board.standard(4), ports=True, water_tiles=True)


def test_rule_3a_road_connections_add_per_road_37():
    """3A: a Full tile worth 12 whose roads meet roads on tiles worth 5 and 8 scores
    (12+5) + (12+8) = 37 ("17 points for each" is a misprint; "multiplied" is not meant:
    every example adds). Roads that dead-end score nothing, whoever owns the neighbour."""
    tiles = {
        "D3": ("5:LLLL:--r-", Q),  # its road meets the new tile's north road
        "E4": ("8:LLLL:---r", None),  # a set-up tile: roads count whoever owns it
        "C4": ("6:LLLL:----", P),  # the new tile's west road dead-ends here
        "D5": ("4:LLLL:r---", P),  # this road dead-ends into the new tile
    }
    entries = score(RULES, tiles, "D4", "12:LLLL:rr-r")
    assert by_key(entries) == {"road": [17, 20]}
    assert sum(e.points for e in entries) == 37


def test_rule_3b_water_connections_35_through_a_flipped_tile():
    """3B: a Quarter tile bordering two tiles on its land-and-water edges and two on water
    edges: 8 (left) + 10 (below) + 5 (above) + 12 (the tile beyond the flipped Water tile
    on its right, in a straight line) = 35, all water connections of the player's own."""
    tiles = {
        "C4": ("8:LWLL:----", P),
        "D5": ("10:LWWW:----", P),
        "D3": ("5:LLWW:----", P),
        "E4": ("WATER", None),
        "F4": ("12:WLLW:----", P),
    }
    entries = score(PORTS, tiles, "D4", "7:WWWL:----")
    assert by_key(entries) == {"water": [5, 12, 10, 8]}
    assert sum(e.points for e in entries) == 35


def test_rule_3b_water_connections_pay_only_the_players_own_tiles():
    tiles = {"C4": ("8:LWLL:----", Q), "D5": ("10:LWWW:----", P)}
    assert by_key(score(RULES, tiles, "D4", "7:WWWL:----")) == {"water": [10]}


def test_rule_3d_ports_54_with_two_white_dice():
    """3D: a tile worth 6 with Fishing and Farming: its Farming road meets the tile worth 8
    (6+8 = 14), a water edge borders the player's tile worth 5 (5), and its Fishing port
    trades with the catty-cornered tile worth 15 (6+15 = 21) and the adjacent 8 (6+8 = 14):
    54 in all, and two white dice (two of its communities trade)."""
    tiles = {
        "D3": ("8:LLLL:f-a-", P),  # Farming facing the new tile, and a Fishing community
        "C4": ("5:LLWL:----", P),  # the player's own, across a water edge
        "C5": ("15:LWLL:f---", Q),  # catty-cornered, with Fishing
    }
    code = "6:LLLW:a--f"  # Farming on the north road, Fishing on the west
    entries = score(PORTS, tiles, "D4", code)
    assert by_key(entries) == {"road": [14], "water": [5], "port": [14, 21]}
    assert sum(e.points for e in entries) == 54
    land = island(PORTS, {**tiles, "D4": (code, P)})
    assert sorted(scoring.trading(PORTS, land, (3, 3), Tile.from_code(code))) == [
        "farming",
        "fishing",
    ]


def test_rule_3c_commerce_dice_three_fishing_communities_make_12():
    """3C: three white dice show Mining, Fishing and Logging; only three Fishing
    communities trade with the new tile (two on it, one on the road's far end), so the
    dice give 3 × 4 = 12."""
    tiles = {
        "D3": ("5:LLLL:--f-", P),
        "E4": ("8:LLLL:---a", P),
        "D5": ("4:LLLL:r---", P),
        "D4": ("9:LLLL:ffc-", P),
    }
    land = island(RULES, tiles)
    sq = RULES.board.parse("D4")
    assert len(scoring.trading(RULES, land, sq, land[sq].tile)) == 3  # three white dice
    entries = scoring.dice_entries(RULES, land, sq, P, ("mining", "fishing", "logging"), "White")
    assert [(e.key, e.points) for e in entries] == [("dice", 12)]


def test_rule_3e_a_water_tile_scores_its_bordering_tiles_7():
    """3E: a flipped tile scores the values of the tiles bordering it (3 + 4 = 7), and
    counts 0 itself."""
    tiles = {"D3": ("3:LLWW:----", Q), "E4": ("4:WLLW:----", P)}
    entries = score(PORTS, tiles, "D4", "WATER")
    assert by_key(entries) == {"water_tile": [3, 4]}
    assert sum(e.points for e in entries) == 7


def test_a_road_stops_at_the_first_community_and_stays_in_the_players_territory():
    """Commerce counts the communities a road reaches first, through the player's tiles."""
    tiles = {
        "D3": ("5:LLLL:m-r-", P),  # plain road in from the south, on to its Mining
        "D2": ("5:LLLL:--f-", P),  # beyond D3's north road? no: Mining stops it first
        "E4": ("8:LLLL:-l-r", Q),  # another player's: its Logging is not this player's
        "D4": ("9:LLLL:rr--", P),
    }
    land = island(RULES, tiles)
    sq = RULES.board.parse("D4")
    assert sorted(scoring.connected(RULES, land, sq, P)) == ["mining"]
    assert scoring.connected(RULES, land, sq, Q) == ["logging"]
    assert scoring.black_throwers(RULES, land, sq) == (Q,)


def _play(state, seat, square, code, turn=0):
    state = GAME.apply(state, Place(seat, square, code, turn))
    return GAME.apply(state, Confirm(seat))


FULL_ROW = [(sq, "5:LLLL:rrrr") for sq in ("C3", "D3", "E3", "F3", "C4", "D4")]


def _to_rounds(players, options=None, setup=FULL_ROW):
    """A game past selection and set-up, its set-up tiles ``setup`` (square, code)."""
    state = GAME.setup(players, options or {})
    while state.phase == "select":
        state = GAME.apply(state, GAME.button(state).action)
    tiles = iter(setup)
    while state.phase == "setup":
        state = _play(state, state.seat, *next(tiles))
    return state


def test_hands_are_refilled_at_the_end_of_the_round_not_after_each_turn():
    state = _to_rounds(3)
    assert state.hands == (3, 3, 3) and state.round == 1 and state.step == "place"
    state = _play(state, 0, "C2", "5:LLLL:----")
    assert state.hands == (2, 3, 3) and state.seat == 1
    state = _play(state, 1, "D2", "5:LLLL:----")
    state = _play(state, 2, "E2", "5:LLLL:----")
    assert state.phase == "draw" and state.hands == (2, 2, 2)
    assert state.queue == (0, 2, 1)  # counter-clockwise from the round's first player
    for _ in range(3):
        state = GAME.apply(state, GAME.button(state).action)
    assert state.hands == (3, 3, 3) and state.round == 2 and state.first == 1  # pawn left


def test_starting_pp_is_0_and_a_balance_may_go_negative():
    state = _to_rounds(4, {"kingdoms": True})
    assert [state.total(s) for s in range(4)] == [0, 0, 0, 0]
    state = GAME.apply(state, GAME.finish_action(state))
    assert GAME.outcome(state).totals == (-90, -90, -90, -90)  # 3 tiles left each


def test_a_discarded_tile_leaves_the_game_and_the_turn_is_lost():
    from companion.games.my_island.state import Discard

    state = _to_rounds(3)
    after = GAME.apply(state, Discard(0))
    assert after.hands == state.hands and after.island == state.island and after.seat == 1


def test_points_and_dice_through_the_reducer():
    """A tile confirmed scores its roads, then its white dice count its communities."""
    state = _to_rounds(3)
    state = GAME.apply(state, Place(0, "C2", "6:LLLL:--f-"))  # Fishing meets C3's road
    assert state.proposal.white == 1 and [e.points for e in state.proposal.entries] == [11]
    state = GAME.apply(state, Confirm(0))
    assert state.step == "white" and GAME.dice(state).count == 1
    assert GAME.dice(state).dice == ("white",)
    state = GAME.apply(state, DiceRolled((2,), "camera"))  # 2: Fishing on a standard d6
    assert [(e.key, e.points) for e in state.ledger] == [("road", 11), ("dice", 4)]
    assert state.seat == 1


def test_the_set_up_phase_keeps_quarter_and_half_tiles_on_the_edge():
    state = GAME.setup(4, {})
    while state.phase == "select":
        state = GAME.apply(state, GAME.button(state).action)
    with pytest.raises(IllegalAction, match="outer edge"):
        GAME.apply(state, Place(0, "D4", "5:LLWW:r---"))
    with pytest.raises(IllegalAction, match="inside the outer edge"):
        GAME.apply(state, Place(0, "A4", "5:LLLL:r---"))
    state = _play(state, 0, "A4", "5:LLWW:r---")
    state = _play(state, 1, "D4", "5:LLLL:r---")
    state = _play(state, 2, "F6", "5:LLLW:r---")
    with pytest.raises(IllegalAction, match="last set-up tile must touch"):
        GAME.apply(state, Place(3, "C6", "5:LLLL:r---"))
    state = _play(state, 3, "D5", "5:LLLL:r---")
    assert state.phase == "play" and set(state.hands) == {3}


def test_edges_must_match_land_to_land_and_water_to_water():
    state = _to_rounds(3)
    with pytest.raises(IllegalAction, match=r"south edge \(water\) does not match the land of C3"):
        GAME.apply(state, Place(0, "C2", "5:LLWW:----"))
    state = GAME.apply(state, Place(0, "C2", "5:LLWW:----", turn=2))  # turned: land south
    assert state.proposal is not None


def test_two_players_the_opponent_plays_a_defensive_tile_first():
    state = _to_rounds(2)
    assert state.step == "defend" and rules.actor(state) == 1 and state.seat == 0
    with pytest.raises(IllegalAction, match="not player 1's move"):
        GAME.apply(state, Place(0, "C2", "5:LLLL:rrrr"))
    state = _play(state, 1, "C2", "5:LLLL:rrrr")
    assert state.island[(1, 2)].owner is None and state.ledger == ()  # no owner, no points
    assert state.hands == (3, 3) and state.step == "place" and rules.actor(state) == 0


def test_selection_passes_start_with_the_next_player():
    from companion.games.my_island.setup import selection_order, setup_order

    assert selection_order(3) == (0, 1, 2, 1, 2, 0, 2, 0, 1, 0, 1, 2, 2)
    assert selection_order(2).count(0) == 5 and setup_order(2) == (0, 1, 0, 1)
    assert setup_order(3) == (0, 1, 2, 2) and setup_order(5) == (0, 1, 2, 3, 4)


def test_playing_out_opens_at_the_rulebooks_count_of_empty_squares():
    from companion.games.my_island.state import PlayOut

    setup = [
        ("B2", "5:LLLL:----"),
        ("C2", "5:LLLL:----"),
        ("D2", "5:LLLL:----"),
        ("A2", "5:WLLW:----"),
    ]
    state = _to_rounds(3, {"board": ["#####"] * 3}, setup)  # 15 squares, 4 set up: 11 empty
    with pytest.raises(IllegalAction, match=r"at most 9 squares are empty \(11 are\)"):
        GAME.apply(state, PlayOut(1))
    state = _play(state, 0, "B1", "5:LLLL:----")
    state = _play(state, 1, "C1", "5:LLLL:----")
    state = GAME.apply(state, PlayOut(1))  # 9 empty
    state = _play(state, 2, "D1", "5:LLLL:----")
    assert state.phase == "draw" and state.queue == (0, 2)  # player 2 no longer refills


def test_the_end_pays_30_pp_per_tile_in_hand_and_a_tie_is_shared():
    north, south = "5:LLWW:----", "5:WWLL:----"  # Half tiles, land to the north or south
    setup = [("A1", north), ("B1", north), ("C1", north), ("A2", south)]
    state = _to_rounds(3, {"board": ["###"] * 2}, setup)  # 6 squares: 4 set up
    state = _play(state, 0, "B2", south)
    state = _play(state, 1, "C2", south)
    outcome = GAME.outcome(state)
    assert outcome.reason == "the island is complete"
    assert outcome.totals == (-60, -60, -90) and outcome.winners == (0, 1)


def test_a_misplay_found_later_costs_40_and_frees_the_square():
    from companion.games.my_island.state import Misplay

    state = _to_rounds(3)
    state = _play(state, 0, "C2", "5:LLLL:----")
    after = GAME.apply(state, Misplay("C2"))
    assert (1, 2) not in after.island and after.total(0) == -40 and after.hands == state.hands


def _roll(state, *values):
    return GAME.apply(state, DiceRolled(values, "test"))


def test_capitols_share_a_white_my_island_and_lose_10_to_a_black_one():
    """Rule 3F: a My-Island face on a white die pays each Capitol owner 10 split evenly,
    whoever threw it; on the black die it costs an unprotected Capitol (not the thrower's)
    10, and nothing when protected."""
    from dataclasses import replace

    state = _to_rounds(3, {"kingdoms": True})
    state = _roll(_play(state, 0, "B3", "5:LLLL:aaaa"), 1)  # meets C3's road: one white die
    assert state.total(0) == 5 + 5
    state = replace(state, capitols={0: (2, 1)})  # player 1's Capitol on B3
    state = _play(state, 1, "B4", "5:LLLL:aaaa")  # trades with B3 (player 1)
    assert GAME.dice(state).count == 1 and state.black == (0,)
    state = _roll(state, 6)  # white: My-Island
    assert state.ledger[-1].seat == 0 and state.ledger[-1].points == 10
    state = _roll(state, 6)  # player 1's black die: no other Capitol to attack
    assert state.total(0) == 20 and state.seat == 2
    protected = replace(state, protected=frozenset({0}))
    for start, loss in ((state, 10), (protected, 0)):
        after = _play(start, 2, "B5", "5:LLLL:aaaa")  # trades with player 2's B4
        assert after.black == (1,)
        after = _roll(_roll(after, 1), 6)  # player 2's black die shows My-Island
        assert after.total(0) == 20 - loss


def test_a_capitol_is_built_for_20_on_a_kingdom_of_four_road_connected_tiles():
    from dataclasses import replace

    from companion.games.my_island.state import BuildCapitol

    start = _to_rounds(3, {"kingdoms": True})

    def owned(*squares):
        mine = {
            start.rules.board.parse(q): Placed(Tile.from_code("5:LLLL:rrrr"), 0, 0, "play")
            for q in squares
        }
        return replace(start, island={**start.island, **mine})

    three = _play(owned("B2", "D2"), 0, "C2", "5:LLLL:rrrr")  # B2, C2, D2: three tiles
    assert three.step == "place" and three.seat == 1  # no Capitol: the turn is over
    state = _play(owned("B2", "D2", "C1"), 0, "C2", "5:LLLL:rrrr")  # four, with C1
    assert state.step == "after" and GAME.button(state).label == "End the turn"
    sites = [a.square for a in GAME.legal_actions(state, 0) if isinstance(a, BuildCapitol)]
    assert sorted(sites) == ["B2", "C1", "C2", "D2"]
    with pytest.raises(IllegalAction, match="kingdom of 4"):
        GAME.apply(state, BuildCapitol(0, "C3"))  # the set-up tile is nobody's
    before = state.total(0)
    state = GAME.apply(state, BuildCapitol(0, "C2"))
    assert state.total(0) == before - 20 and state.capitols == {0: (1, 2)}
    assert state.seat == 1


def test_the_island_is_complete_when_no_tile_can_fill_an_empty_square():
    """A square whose neighbours demand land and water of the same quarter stays empty for
    good: once every empty square is such, the island is complete and the game ends."""
    from dataclasses import replace

    from companion.games.my_island.placing import complete, fillable

    north, south = "5:LLWW:----", "5:WWLL:----"  # Half tiles, land to the north or south
    start = _to_rounds(3, {"board": ["###"] * 2}, [  # any set-up: replaced below
        ("A1", north), ("B1", north), ("C1", north), ("A2", south)])  # fmt: skip
    board = start.rules.board
    tiles = {"A1": north, "B1": north, "C2": north}  # C1 and B2 lie between B1 and C2
    island = {board.parse(q): Placed(Tile.from_code(c), 0, None, "setup") for q, c in tiles.items()}
    state = replace(start, island=island)
    # B2's north-east quarter: water by B1's south edge, land by C2's west edge; C1 likewise
    assert not fillable(state.rules, island, (1, 1)) and not fillable(state.rules, island, (0, 2))
    assert fillable(state.rules, island, (1, 0)) and not complete(state.rules, island)
    state = _play(state, 0, "A2", south)
    assert complete(state.rules, state.island)
    assert GAME.outcome(state).reason == "the island is complete"


def test_playing_out_a_player_may_take_a_tile_instead_of_playing():
    from companion.games.my_island.state import PlayOut, Take

    state = _to_rounds(3, {"board": ["#####"] * 3}, [
        ("B2", "5:LLLL:----"), ("C2", "5:LLLL:----"), ("D2", "5:LLLL:----"),
        ("A2", "5:WLLW:----")])  # fmt: skip
    with pytest.raises(IllegalAction, match="only while playing out"):
        GAME.apply(state, Take(0))
    state = _play(_play(state, 0, "B1", "5:LLLL:----"), 1, "C1", "5:LLLL:----")
    state = GAME.apply(GAME.apply(state, PlayOut(2)), Take(2))  # player 3 cannot play
    assert state.hands == (2, 2, 4) and state.phase == "draw" and len(state.island) == 6


def test_a_set_up_tile_beside_the_tile_played_may_be_bought_at_auction():
    from companion.games.my_island.state import Buy, EndTurn

    state = _to_rounds(3, {"auction": True})
    with pytest.raises(IllegalAction, match="no set-up tile beside the tile just played"):
        GAME.apply(state, Buy("C3", 1, 12))
    state = _play(state, 0, "B3", "5:LLLL:----")  # beside the set-up tile on C3
    assert state.step == "after" and GAME.player_view(state, None)["auction"] == ["C3"]
    state = GAME.apply(state, Buy("C3", 1, 12))  # player 2's bid won
    assert state.island[(2, 2)].owner == 1 and state.total(1) == -12
    assert state.seat == 1  # nothing else to decide: the turn ended
    later = _play(state, 1, "F2", "5:LLLL:----")  # beside the set-up tile on F3
    assert GAME.apply(later, EndTurn()).seat == 2  # not bought: the auction closes


def test_a_water_tile_goes_off_the_edge_where_its_neighbours_show_water_with_the_option():
    state = _to_rounds(3, {"water_tiles": True})
    plain = _to_rounds(3, {})
    state = _play(state, 0, "C4", "5:LLWW:----")  # below C3: land north, water south
    plain = _play(plain, 0, "C4", "5:LLWW:----")
    with pytest.raises(IllegalAction, match="with the Water tiles option"):
        GAME.apply(plain, Place(1, "C5", "WATER"))
    state = GAME.apply(state, Place(1, "C5", "WATER"))  # below C4's water edge
    assert state.proposal.how == "water" and [e.points for e in state.proposal.entries] == [5]
    state = GAME.apply(state, Confirm(1))
    assert state.island[(4, 2)].owner is None and state.hands[1] == 2
    with pytest.raises(IllegalAction, match="does not match"):
        GAME.apply(state, Place(2, "B3", "WATER"))  # beside C3's land edge
    edge = _play(_to_rounds(3, {"water_tiles": True}), 0, "B3", "5:LLLL:----")
    with pytest.raises(IllegalAction, match="not played on the board's edge"):
        GAME.apply(edge, Place(1, "A3", "WATER"))


def test_an_island_complete_after_the_set_up_ends_the_game_at_once():
    north, south = "5:LLWW:----", "5:WWLL:----"
    state = _to_rounds(3, {"board": ["###"] * 2}, [
        ("C2", north), ("A1", north), ("B1", north), ("A2", south)])  # fmt: skip
    # C1 and B2 cannot be filled: the corner they share with B1 and C2 is water by B1's
    # south edge and land by C2's north-west quarter
    assert GAME.outcome(state) is not None and state.phase == "over"

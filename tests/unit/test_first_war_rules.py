"""The First War's rules as its text determines them (docs/first-war.md): the opening
figures, movement and discovery, the conflict table, food, research, growth and its die,
and each victory condition with the tie-break."""

from dataclasses import replace

import pytest

from companion.engine.game import DiceRolled, get_game
from companion.errors import IllegalAction
from companion.games.first_war import conflict, economy, hexmap
from companion.games.first_war.rules import level_iv, losing
from companion.games.first_war.state import (
    Activate,
    Card,
    Cover,
    Done,
    Emergency,
    Move,
    Piece,
    Retreat,
    Reveal,
    Stacks,
    Wound,
)

GAME = get_game("first-war")
C = hexmap.parse


def start():
    return GAME.setup(2, {})


def test_the_opening_population_6_food_8_and_research_1():
    s = start()
    for seat in (0, 1):
        assert s.sides[seat].count() == 6
        assert economy.food(s, seat) == (8, 6)  # 2 Farmers on Fields x 3 + 2 Hunters on Plain
        assert economy.research_points(s, seat) == 1
    assert s.sides[1].active == {Card(1, 1)} and not s.sides[0].active  # the free card


def _to_phase(s, phase):
    while s.phase != phase:
        s = GAME.apply(s, Done(s.seat))
    return s


def test_the_first_population_increase_is_on_the_plains_only():
    s = _to_phase(start(), "research")
    s = GAME.apply(s, Done(0))  # healing, then growth: 4 on the Fields, 2 Hunters on the Plain
    assert s.seat == 1 and s.sides[0].count("hunter") == 3 and s.sides[0].count() == 7
    assert [p.kind for p in s.pieces(0, C("B2"))] == ["hunter"] * 3


def test_a_discovery_a_lake_keeps_the_piece_and_a_revealed_lake_can_be_crossed():
    s = _to_phase(start(), "hunters")
    s = GAME.apply(s, Move(0, "B2", "C3", "hunter", reveal="lake"))
    assert s.terrain[C("C3")] == "lake" and len(s.pieces(0, C("B2"))) == 2
    with pytest.raises(IllegalAction, match=r"free to move|moved as far"):
        GAME.apply(
            GAME.apply(s, Move(0, "B2", "C2", "hunter", reveal="plain")),
            Move(0, "B2", "C2", "hunter"),
        )  # the turned-back Hunter moves no more
    # the second Hunter crosses the lake to a tile beyond it (a discovery: forest)
    s = GAME.apply(s, Move(0, "B2", "D4", "hunter", reveal="forest"))
    assert [p.kind for p in s.pieces(0, C("D4"))] == ["hunter"]
    again = _to_phase(start(), "hunters")
    again = replace(again, terrain={**again.terrain, C("C3"): "lake"})
    with pytest.raises(IllegalAction, match="never ends its move in a lake"):
        GAME.apply(again, Move(0, "B2", "C3", "hunter"))


def test_stacking_allows_four_of_ones_own_pieces_in_a_tile():
    s = _to_phase(start(), "others")
    s = replace(s, terrain={**s.terrain, C("A2"): "plain"})
    s = GAME.apply(s, Move(0, "A1", "B2", "farmer"))
    s = GAME.apply(s, Move(0, "A1", "B2", "farmer"))
    with pytest.raises(IllegalAction, match="already holds 4"):
        GAME.apply(s, Move(0, "A1", "B2", "healer"))


def _fight(attacker, defender, cell="F6"):
    """Seat 0's ``attacker`` pieces and seat 1's ``defender`` on one tile, in conflict."""
    at = C(cell)
    s = start()
    sides = (
        replace(s.sides[0], cells={**s.sides[0].cells, at: attacker}),
        replace(s.sides[1], cells={**s.sides[1].cells, at: defender}),
    )
    s = replace(
        s,
        sides=sides,
        terrain={**s.terrain, at: "plain", (0, -1): "plain", C("F7"): "plain"},
        phase="conflict",
    )
    return conflict.next_battle(s)


H, F = Piece("hunter", came=(0, -1)), Piece("farmer", came=(0, -1))


HEALER = Piece("healer", came=(0, -1))
WH, WF = Piece("hunter", wounded=True), Piece("farmer", wounded=True)


@pytest.mark.parametrize(
    "attacker, defender, ours, theirs, retreating",
    [
        ((H,), (Piece("hunter"),), (H,), (WH,), 1),  # 2 v 1: the weaker wounded, retreats
        ((H,), (Piece("farmer"),), ("wounded",), (WF,), 0),  # 2 v 2: both wounded, attacker out
        ((H, H), (Piece("hunter"),), (H, H), (), None),  # 4 v 1: triple, back to the track
        ((F,), (Piece("healer"),), (F,), (), None),  # 1 v 0: any strength against 0 is triple
        ((HEALER,), (Piece("scientist"),), ("wounded",), (Piece("scientist", wounded=True),), 0),
    ],  # the last: 0 v 0 is a tie
)
def test_the_conflict_table(attacker, defender, ours, theirs, retreating):
    s = _fight(attacker, defender)
    s = GAME.apply(GAME.apply(s, Stacks(1, (0,) * len(defender))), Cover(0, (0,) * len(attacker)))
    mine = s.pieces(0, C("F6"))
    assert len(mine) == len(ours)
    for p, want in zip(mine, ours, strict=True):
        assert p.wounded if want == "wounded" else not p.wounded
    assert (
        tuple(replace(p, steps=0, came=None, stopped=False) for p in s.pieces(1, C("F6"))) == theirs
    )
    owed = s.battle.retreats if s.battle is not None else ()
    assert [seat for seat, _, _ in owed] == ([] if retreating is None else [retreating])


def test_a_retreat_goes_where_the_rules_allow():
    s = _fight((H,), (Piece("hunter"),))
    s = GAME.apply(GAME.apply(s, Stacks(1, (0,))), Cover(0, (0,)))
    b = s.battle
    seat, at, i = b.retreats[0]
    options = conflict.retreat_options(s, seat, at, s.pieces(seat, at)[i])
    came = hexmap.name((0, -1))
    assert seat == 1 and (0, -1) not in options  # not where the attacker came from
    with pytest.raises(IllegalAction, match="no retreat"):
        GAME.apply(s, Retreat(1, 0, came))
    s = GAME.apply(s, Retreat(1, 0, "F7"))
    assert s.pieces(1, C("F7"))[0].wounded and s.battle is None


def test_food_shortfall_wounds_and_a_second_wound_only_when_all_are_wounded():
    s = _to_phase(start(), "others")
    s = GAME.apply(s, Move(0, "A1", "A2", "farmer", reveal="mountain"))
    s = GAME.apply(s, Move(0, "A1", "A2", "farmer"))
    s = GAME.apply(s, Done(0))  # conflict (none), food: 2 Hunters feed 2 of 6: 4 wounds
    assert s.phase == "food" and s.wounds_owed == 4
    s = GAME.apply(s, Wound(0, "A2", 0))
    with pytest.raises(IllegalAction, match="only when all your others are wounded"):
        GAME.apply(s, Wound(0, "A2", 0))


def test_a_surplus_of_each_3_food_heals_a_wounded_healer():
    s = _to_phase(start(), "others")
    side = s.sides[0]
    cells = {
        **side.cells,
        C("A1"): (
            Piece("healer", wounded=True),
            Piece("scientist"),
            Piece("farmer"),
            Piece("farmer"),
        ),
        C("B1"): (Piece("farmer"),),
    }
    s = replace(
        s, sides=(replace(side, cells=cells), s.sides[1]), terrain={**s.terrain, C("B1"): "fields"}
    )
    assert economy.food(s, 0) == (11, 7)  # 3 Farmers on Fields, 2 Hunters on the Plain
    s = GAME.apply(s, Done(0))  # 4 over: one wounded Healer healed (no healthy Healer heals)
    assert not s.pieces(0, C("A1"))[0].wounded


def test_research_reveals_level_by_level_and_activates_under_active_parents():
    s = _to_phase(start(), "research")
    s = replace(s, points=10)
    with pytest.raises(IllegalAction, match="once a level 1 card is"):
        GAME.apply(s, Reveal(0, 2, 0))
    s = GAME.apply(s, Reveal(0, 1, 0))
    s = GAME.apply(s, Reveal(0, 2, 0))
    assert s.points == 7
    with pytest.raises(IllegalAction, match="cards above it must be active"):
        GAME.apply(s, Activate(0, 2, 0, 2))
    s = GAME.apply(GAME.apply(s, Activate(0, 1, 0, 2)), Activate(0, 2, 0, 3))
    assert s.points == 2 and s.sides[0].paid == {Card(1, 0): 2, Card(2, 0): 3}


@pytest.mark.parametrize(
    "kinds, die, grows",
    [
        (["hunter", "farmer"], 3, "hunter"),
        (["hunter", "farmer"], 4, "farmer"),
        (["farmer", "healer", "scientist"], 2, "farmer"),
        (["farmer", "healer", "scientist"], 3, "healer"),
        (["farmer", "healer", "scientist"], 6, "scientist"),
    ],
)
def test_the_population_die_mapping(kinds, die, grows):
    assert economy.by_die(kinds, die) == grows


def test_two_types_on_a_tile_wait_for_the_die():
    s = _to_phase(start(), "others")
    s = GAME.apply(s, Move(0, "A1", "B2", "healer"))  # Plains: 2 Hunters and a Healer
    s = GAME.apply(s, Move(0, "A1", "B1", "scientist", reveal="forest"))
    s = _to_phase(s, "research")
    s = GAME.apply(s, Done(0))
    assert s.phase == "population" and [hexmap.name(c) for c in s.pending] == ["B2"]
    spec = GAME.dice(s)
    assert spec.count == 1 and spec.purpose == "population on B2"
    s = GAME.apply(s, DiceRolled((5,), "camera"))  # 4-6: the later type, a Healer
    assert [p.kind for p in s.pieces(0, C("B2"))].count("healer") == 2 and s.seat == 1


def test_victory_each_condition():
    s = start()
    home = C("K6")
    took = replace(
        s,
        sides=(
            replace(s.sides[0], cells={**s.sides[0].cells, home: (H,)}),
            replace(s.sides[1], cells={c: p for c, p in s.sides[1].cells.items() if c != home}),
        ),
    )
    assert losing(took, 1) == "its starting Fields taken"
    no_sci = replace(
        s,
        sides=(
            s.sides[0],
            replace(
                s.sides[1],
                cells={C("K6"): (Piece("healer"), Piece("farmer")), C("J6"): (Piece("hunter"),)},
            ),
        ),
    )
    assert losing(no_sci, 1) == "its last scientist lost"
    hurt = replace(
        s,
        sides=(
            s.sides[0],
            replace(
                s.sides[1],
                cells={
                    c: tuple(replace(p, wounded=True) for p in ps)
                    for c, ps in s.sides[1].cells.items()
                },
            ),
        ),
    )
    assert losing(hurt, 1) == "every piece wounded"


def _level_iv(side, costs):
    cards = {Card(4, i) for i in range(3)}
    return replace(
        side,
        active=side.active | cards,
        paid={**side.paid, **{Card(4, i): c for i, c in enumerate(costs)}},
    )


def test_three_level_iv_cards_the_second_player_finishes_his_turn_and_costs_break_the_tie():
    s = _to_phase(start(), "research")
    s = replace(s, sides=(_level_iv(s.sides[0], (5, 5, 5)), s.sides[1]))
    s = GAME.apply(s, Done(0))
    assert s.level_iv == 0 and not s.ended and s.seat == 1
    later = replace(s, sides=(s.sides[0], _level_iv(s.sides[1], (6, 6, 6))))
    end = _to_phase(later, "research")
    end = GAME.apply(end, Done(1))
    assert end.ended and end.winner == 1  # 18 paid against 15
    plain = GAME.apply(_to_phase(s, "research"), Done(1))
    assert plain.ended and plain.winner == 0
    assert level_iv(s.sides[0]) == 3


def test_a_food_emergency_feeds_3_for_every_healthy_piece_on_fields():
    s = GAME.apply(start(), Emergency(0))
    assert s.sides[0].emergency and s.phase == "hunters"
    assert economy.food(s, 0) == (12, 6)  # 4 pieces on the Fields; the Plain's Hunters 0


def test_no_attack_across_a_lake_and_no_attack_by_a_wounded_piece():
    s = _to_phase(start(), "hunters")
    enemy = {**s.sides[1].cells, C("D4"): (Piece("farmer"),), C("B3"): (Piece("farmer"),)}
    s = replace(
        s,
        terrain={**s.terrain, C("C3"): "lake", C("D4"): "plain", C("B3"): "plain"},
        sides=(s.sides[0], replace(s.sides[1], cells=enemy)),
    )
    with pytest.raises(IllegalAction, match="no attack across a lake"):
        GAME.apply(s, Move(0, "B2", "D4", "hunter"))
    hurt = replace(
        s.sides[0], cells={**s.sides[0].cells, C("B2"): (Piece("hunter", wounded=True),)}
    )
    with pytest.raises(IllegalAction, match="a wounded piece never attacks"):
        GAME.apply(replace(s, sides=(hurt, s.sides[1])), Move(0, "B2", "B3", "hunter", True))
    s = GAME.apply(s, Move(0, "B2", "B3", "hunter"))  # entering an enemy tile stops it
    assert s.pieces(0, C("B3"))[0].stopped


def test_a_game_starts_from_a_position_file_and_a_bad_one_is_named():
    import json
    from pathlib import Path

    example = json.loads((Path(__file__).parents[2] / "docs/examples/first-war.json").read_text())
    s = GAME.setup(2, {"position": example})
    assert s.phase == "emergency" and s.seat == 0 and len(s.pieces(0, C("B2"))) == 3
    with pytest.raises(IllegalAction, match="option 'position': sides: must list the 2 sides"):
        GAME.setup(2, {"position": {"sides": []}})


def test_the_demo_draws_rolls_for_a_game_whose_dice_come_later_and_none_for_a_diceless_one():
    from companion.device.demo import rolls_dice as _rolls_dice

    assert _rolls_dice("first-war") and _rolls_dice("my-island")
    assert not _rolls_dice("first-giants")

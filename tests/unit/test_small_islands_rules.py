"""Small Islands: the rewards reproduce the rulebook's examples, the rounds run as it says,
objectives stay secret, and Alexis plays his cards (docs/small-islands.md)."""

import json

import pytest

from companion.engine.game import action_to_json, get_game
from companion.errors import IllegalAction
from companion.games.small_islands import cards
from companion.games.small_islands.state import (
    ALEXIS,
    AlexisCard,
    AlexisDeck,
    AlexisHouses,
    AlexisPlaced,
    Choose,
    Explore,
    Island,
    Land,
    Rewarded,
    Ship,
)

GAME = get_game("small-islands")


def counts(**kw):
    return tuple(kw.get(k, 0) for k in cards.COUNTS)


def isl(**kw):
    return dict(zip(cards.COUNTS, counts(**kw), strict=True))


@pytest.mark.parametrize(
    "reward, islands, total",
    [
        ("flowers", [isl(flowers=3), isl(flowers=2)], 9),  # 3 + 2 and 2 + 2
        ("lowest", [isl(fruits=2), isl(flowers=3, fruits=1, leaves=1)], 10),  # 4+2, 2+2
        ("chosen", [isl(flowers=3, fruits=2), isl(leaves=4, flowers=3)], 11),  # 3+2, 4+2
        ("flat", [isl(tiles=1)], 6),
        ("size", [isl(tiles=5), isl(tiles=6)], 10),  # 4 and 6
        ("ports", [isl(flowers=3, fruits=2, ports=5)], 5),  # 3 + 2 pairs
        ("locations", [isl(locations=4, houses=2)], 4),  # free and taken alike
    ],
)
def test_each_reward_reproduces_the_rulebooks_example(reward, islands, total):
    assert sum(cards.reward(reward, i) for i in islands) == total


def _chosen(state, card=1, later=2):
    for s in range(state.players):
        state = GAME.apply(state, Choose(s, card=card, later=later))
    return state


def _explore_to_landing(state):
    while state.nav:
        state = GAME.apply(state, Explore(state.seat, 1))
    return state


def test_a_round_prepares_explores_lands_and_rewards():
    state = GAME.setup(3, {})
    assert state.phase == "prepare" and state.nav == 6 and state.reserve == 56 - 3 - 6 - 6
    state = _chosen(state)
    assert state.phase == "explore"
    with pytest.raises(IllegalAction, match="no landing while 6 tiles"):
        GAME.apply(state, Land(0))
    with pytest.raises(IllegalAction, match="not player 2's turn"):
        GAME.apply(state, Explore(1, 1))
    state = _explore_to_landing(state)
    seat = state.seat
    state = GAME.apply(state, Land(seat, "own"))
    assert state.phase == "reward" and state.landed == (str(seat + 1),)
    state = GAME.apply(state, Island(0, counts(flowers=3, tiles=3)))  # card 1: flowers
    with pytest.raises(IllegalAction, match="does not fulfil your mission"):
        GAME.apply(state, Island(0, counts(flowers=1, tiles=2)))
    assert state.total(0) == 5 and state.houses[0] == 3
    for s in range(3):
        state = GAME.apply(state, Rewarded(s))
    assert state.round == 2 and state.phase == "prepare" and state.nav == 6


def test_the_game_ends_after_the_fourth_reward_and_ships_score_their_ports():
    state = GAME.setup(2, {})
    for _ in range(4):
        state = _explore_to_landing(_chosen(state))
        while not (state.own_ship[state.seat] or state.grey):
            state = GAME.apply(state, Explore(state.seat, 1))  # no ship for this player: on
        ship = "own" if state.own_ship[state.seat] else "grey"
        state = GAME.apply(state, Land(state.seat, ship))
        state = GAME.apply(GAME.apply(state, Rewarded(0)), Rewarded(1))
    assert state.phase == "ships"
    state = GAME.apply(GAME.apply(state, Ship(0, 3)), Ship(1, 1))
    outcome = GAME.outcome(state)
    assert outcome.totals == (3, 1) and outcome.winners == (0,)


def test_the_game_ends_when_no_navigation_stack_can_be_made():
    state = GAME.setup(2, {})
    state = _explore_to_landing(_chosen(state))
    from dataclasses import replace

    state = GAME.apply(replace(state, reserve=5), Land(state.seat))
    state = GAME.apply(GAME.apply(state, Rewarded(0)), Rewarded(1))
    assert state.phase == "ships" and state.round == 1


def test_an_objective_is_its_players_alone_until_the_end():
    state = GAME.setup(3, {})
    for seat, card in enumerate((1, 4, 7)):
        state = GAME.apply(state, Choose(seat, card=card, later=card + 1))
    says = [GAME.player_view(state, s)["objective"]["says"] for s in range(3)]
    assert len(set(says)) == 3
    for seat in range(3):
        seen = json.dumps(GAME.player_view(state, seat))
        assert all((s in seen) == (i == seat) for i, s in enumerate(says)), seat
    table = json.dumps(GAME.player_view(state, None))
    assert not any(s in table for s in says)
    choose = Choose(1, card=4, later=5)
    assert GAME.action_view(choose, 0) is None and GAME.action_view(choose, None) is None
    assert GAME.action_view(choose, 1) == action_to_json(choose)
    assert "4" not in GAME.describe(choose) and "temple" not in GAME.describe(choose)


def test_temples_draw_discovery_tokens_in_the_advanced_mode():
    state = GAME.setup(2, {"advanced": True})
    for s in (0, 1):
        state = GAME.apply(
            state,
            Choose(s, mission="temple", reward="temples", later_mission="any", later_reward="flat"),
        )
    state = _explore_to_landing(state)
    state = GAME.apply(state, Land(state.seat))
    state = GAME.apply(state, Island(0, counts(temples=2, tiles=3)))
    state = GAME.apply(state, Island(0, counts(temples=3, tiles=4)))
    assert state.discovery == (2, 0)  # the rulebook's example: 2 tokens


STACK = AlexisDeck((1, 2, 3, 4, 5, 6, 7, 11, 12, 13))  # Alexis card 2: 7 Explore, 3 Land


def test_alexis_exploration_stack_follows_his_cards_counts():
    state = _chosen(GAME.setup(1, {"alexis": 2}))
    with pytest.raises(IllegalAction, match="takes 7 Explore and 3 Land cards"):
        GAME.apply(state, AlexisDeck((1, 2, 3)))
    state = GAME.apply(GAME.apply(state, STACK), Explore(0, 1))
    with pytest.raises(IllegalAction, match="not in Alexis' exploration stack"):
        GAME.apply(state, AlexisCard(15))
    state = GAME.apply(GAME.apply(state, AlexisCard(2)), AlexisPlaced(True))
    state = GAME.apply(state, Explore(0, 1))
    with pytest.raises(IllegalAction, match="drawn already"):
        GAME.apply(state, AlexisCard(2))


def test_alexis_explores_by_his_card_and_a_tile_he_cannot_place_gives_him_1_pp():
    state = GAME.apply(_chosen(GAME.setup(1, {"alexis": 2})), STACK)
    state = GAME.apply(state, Explore(0, 2))
    with pytest.raises(IllegalAction, match="not player 1's turn"):
        GAME.apply(state, Explore(0, 1))
    state = GAME.apply(state, AlexisCard(2))  # explore: the 2nd face-up tile
    view = GAME.player_view(state, None)["card"]
    assert (view["kind"], view["take"]) == ("explore", 2)
    state = GAME.apply(state, AlexisPlaced(False))
    assert state.total(ALEXIS) == 1 and state.seat == 0
    rows = GAME.score_rows(state)
    assert rows[-1].name == "Alexis" and rows[-1].total == 1


def test_alexis_lands_on_a_land_card_once_the_navigation_stack_is_empty():
    state = GAME.apply(_chosen(GAME.setup(1, {"alexis": 2})), STACK)
    state = GAME.apply(state, Explore(0, 1))
    state = GAME.apply(state, AlexisCard(12))  # a Land card, with tiles still to navigate:
    assert not GAME.player_view(state, None)["card"]["lands"]  # ...he explores (action B)
    state = GAME.apply(state, AlexisPlaced(True))
    explore = iter((1, 2, 3, 4, 5, 6, 7))
    while state.nav or state.seat == 0:  # to Alexis' turn with the navigation stack empty
        if state.seat == 0:
            state = GAME.apply(state, Explore(0, 1))
        else:
            state = GAME.apply(GAME.apply(state, AlexisCard(next(explore))), AlexisPlaced(True))
    state = GAME.apply(state, AlexisCard(11))
    assert GAME.player_view(state, None)["card"]["lands"]
    state = GAME.apply(state, AlexisPlaced(True))
    assert state.phase == "reward" and state.landed[-1] == "Alexis"
    state = GAME.apply(state, Rewarded(0))
    with pytest.raises(IllegalAction, match="draw Alexis' card"):
        GAME.apply(state, AlexisHouses(2))
    state = GAME.apply(GAME.apply(state, AlexisCard(13)), AlexisHouses(2))
    assert state.round == 2 and state.alexis_houses == 6 and state.drawn == ()  # reshuffled


def test_you_win_a_solo_game_only_by_beating_alexis():
    from dataclasses import replace

    from companion.games.small_islands.state import Entry

    state = GAME.setup(1, {"alexis": 1})
    state = replace(
        state,
        ledger=(Entry(0, 20, "rewards", "x"), Entry(ALEXIS, 20, "alexis", "y")),
        ended="every ship counted",
    )
    assert GAME.outcome(state).winners == ()
    state = replace(state, ledger=(*state.ledger, Entry(0, 1, "ships", "z")))
    assert GAME.outcome(state).winners == (0,)

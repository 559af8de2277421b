"""The First Island's turn: the roll, the reroll, marking, overrides, the round button."""

from dataclasses import replace

import pytest

from companion.errors import IllegalAction
from companion.games.first_island.state import Advance, Finish, KeepRoll, Mark, Reroll
from tests.helpers import roll


def play(game, state, *actions):
    for a in actions:
        state = game.apply(state, a)
    return state


@pytest.fixture
def two(first_island):
    """A 2-player game with the roll Scavengers, Builders, Scholars, Scholars, Healers."""
    return first_island.apply(first_island.setup(2, {"s_card": 4}), roll(1, 2, 3, 3, 5))


def rejected(game, state, action, code, text):
    with pytest.raises(IllegalAction) as info:
        game.apply(state, action)
    assert info.value.code == code
    assert text in info.value.message
    return info.value


def test_a_new_game_waits_for_the_roll(first_island):
    s = first_island.setup(3, {"s_card": 5})
    assert (s.phase, s.round, len(s.boards)) == ("roll", 1, 3)
    assert first_island.dice(s).count == 5
    assert first_island.dice(s).faces[6] == "scientists"


@pytest.mark.parametrize("players", [0, 7, "two"])
def test_players_must_be_1_to_6(first_island, players):
    with pytest.raises(IllegalAction, match="1 to 6 players"):
        first_island.setup(players, {})


def test_unknown_setup_options_are_named(first_island):
    with pytest.raises(IllegalAction, match=r"unknown option.*colour"):
        first_island.setup(2, {"colour": "red"})


def test_a_roll_needs_five_tribe_faces(first_island):
    s = first_island.setup(2, {"s_card": 4})
    rejected(first_island, s, roll(1, 2, 3), "roll/wrong_count", "expected 5 dice")
    rejected(first_island, s, roll(1, 2, 3, 4, 7), "roll/bad_face", "die 5 shows 7")


def test_two_different_tribes_split_a_hex_and_two_alike_make_one_large(first_island, two):
    s = play(first_island, two, Mark(0, (0, 0), (1, 2), 1), Mark(0, (1, 0), (3, 4)))
    cells = s.boards[0].cells
    assert cells[(0, 0)].tribes == ("scavengers", "builders") and cells[(0, 0)].axis == 1
    assert cells[(1, 0)].tribes == ("scholars",) and cells[(1, 0)].large
    assert s.boards[1].cells == {}  # the other player's board is their own


def test_a_split_needs_an_axis(first_island, two):
    rejected(first_island, two, Mark(0, (0, 0), (1, 2)), "action/bad_axis", "needs a split axis")
    rejected(first_island, two, Mark(0, (0, 0), (1, 2), 3), "action/bad_axis", "not 3")


def test_a_marked_hex_cannot_be_marked_again(first_island, two):
    s = first_island.apply(two, Mark(0, (2, -1), (1, 2), 0))
    rejected(
        first_island,
        s,
        Mark(0, (2, -1), (3, 5), 0),
        "action/hex_marked",
        "hex (2,-1) is already marked",
    )


def test_a_hex_must_be_on_the_island(first_island, two):
    rejected(
        first_island,
        two,
        Mark(0, (9, 9), (1, 2), 0),
        "action/off_map",
        "hex (9,9) is not on the island",
    )


def test_each_die_is_used_once_per_turn(first_island, two):
    s = first_island.apply(two, Mark(0, (0, 0), (4, 2), 0))
    rejected(
        first_island,
        s,
        Mark(0, (1, 0), (4, 5), 0),
        "action/die_used",
        "die 4 was already used this turn",
    )
    rejected(first_island, two, Mark(0, (1, 0), (3, 3)), "action/die_used", "die 3")
    rejected(first_island, two, Mark(0, (1, 0), (0, 3)), "action/bad_die", "no die 0")


def test_each_player_marks_two_hexes_a_turn(first_island, two):
    s = play(first_island, two, Mark(0, (0, 0), (1, 2), 0), Mark(0, (1, 0), (3, 4)))
    rejected(first_island, s, Mark(0, (2, 0), (5, 5)), "action/turn_done", "already marked 2")


def test_other_seats_choose_from_the_same_dice_independently(first_island, two):
    s = play(first_island, two, Mark(0, (0, 0), (1, 2), 0), Mark(1, (0, 0), (1, 2), 0))
    assert s.boards[0].cells == s.boards[1].cells


def test_the_round_button_waits_for_every_seat(first_island, two):
    s = play(first_island, two, Mark(0, (0, 0), (1, 2), 0), Mark(0, (1, 0), (3, 4)))
    err = rejected(first_island, s, Advance(), "action/not_done", "seat(s) 2")
    assert "round 1" in err.message
    s = play(first_island, s, Mark(1, (0, 0), (1, 2), 0), Mark(1, (1, 0), (3, 4)))
    assert s.phase == "done"
    s = first_island.apply(s, Advance())
    assert (s.phase, s.round, s.boards[0].marks, s.boards[0].dice_used) == (
        "roll",
        2,
        0,
        frozenset(),
    )


def test_a_new_roll_after_everyone_marked_starts_the_next_round(first_island, two):
    s = play(first_island, two, Mark(0, (0, 0), (1, 2), 0), Mark(0, (1, 0), (3, 4)))
    rejected(first_island, s, roll(1, 1, 1, 1, 1), "roll/not_expected", "seat(s) 2")
    s = play(
        first_island, s, Mark(1, (0, 0), (1, 2), 0), Mark(1, (1, 0), (3, 4)), roll(6, 6, 6, 6, 6)
    )
    assert (s.round, s.roll, s.phase) == (2, (6, 6, 6, 6, 6), "mark")


def test_override_replaces_one_die_with_any_unused_tribe(first_island, two):
    s = play(first_island, two, Mark(0, (0, 0), (1, "matriarchy"), 2))
    b = s.boards[0]
    assert b.cells[(0, 0)].tribes == ("scavengers", "matriarchy")
    assert b.overrides == ("matriarchy",)
    # With an override, 2 of the 5 dice go unused: the second hex still takes 2 dice.
    s = first_island.apply(s, Mark(0, (1, 0), (2, 3), 0))
    assert len(s.boards[0].dice_used) == 3


def test_one_override_per_turn(first_island, two):
    s = first_island.apply(two, Mark(0, (0, 0), (1, "matriarchy"), 2))
    rejected(
        first_island,
        s,
        Mark(0, (1, 0), (2, "healers"), 0),
        "action/override_per_turn",
        "one tribe override",
    )
    rejected(
        first_island,
        two,
        Mark(0, (1, 0), ("healers", "builders"), 0),
        "action/override_per_turn",
        "one tribe override",
    )


def _next_round(game, s, *marks):
    s = play(game, s, *marks)
    for seat in range(s.players):
        while not s.seat_done(seat):
            free = sorted(h for h in s.island.hexes if h not in s.boards[seat].cells)
            dice = [d for d in range(1, 6) if d not in s.boards[seat].dice_used]
            s = game.apply(s, Mark(seat, free[0], (dice[0], dice[1]), 0))
    return play(game, s, Advance(), roll(1, 2, 3, 3, 5))


def test_each_override_box_once_and_at_most_3_per_game(first_island, two):
    s = _next_round(first_island, two, Mark(0, (0, 0), (1, "builders"), 0))
    rejected(
        first_island,
        s,
        Mark(0, (1, 1), (1, "builders"), 0),
        "action/override_used",
        "tribe override for Builders already used",
    )
    s = _next_round(first_island, s, Mark(0, (1, 1), (1, "healers"), 0))
    s = _next_round(first_island, s, Mark(0, (1, 2), (1, "scholars"), 0))
    rejected(
        first_island,
        s,
        Mark(0, (2, 1), (1, "scientists"), 0),
        "action/override_limit",
        "you may use at most 3 overrides",
    )
    assert first_island.score(s)[0]["overrides"] == -3


def test_unknown_tribe_in_a_pick(first_island, two):
    rejected(first_island, two, Mark(0, (0, 0), (1, "elves"), 0), "action/bad_pick", "'elves'")


def test_reroll_replaces_only_the_dice_showing_a_value_three_or_more_times(first_island):
    s = first_island.apply(first_island.setup(2, {"s_card": 4}), roll(4, 1, 4, 4, 6))
    s = first_island.apply(s, Reroll((1, 6, 2, 3, 4)))
    # Dice 2 and 5 (Scavengers, Scientists) stay; dice 1, 3, 4 take the new faces.
    assert s.roll[1] == 1 and s.roll[4] == 6
    assert sorted(s.roll) == [1, 2, 3, 4, 6]
    rejected(first_island, s, Reroll((1, 1, 1, 1, 6)), "roll/reroll_used", "once per turn")


def test_reroll_needs_three_alike_and_unchanged_kept_dice(first_island, two):
    rejected(first_island, two, Reroll((1, 2, 3, 3, 5)), "roll/no_reroll", "3 or more")
    s = first_island.apply(first_island.setup(2, {"s_card": 4}), roll(4, 1, 4, 4, 6))
    rejected(first_island, s, Reroll((2, 2, 2, 2, 2)), "roll/kept_dice_changed", "Scavengers")


def test_reroll_is_the_rollers_choice_made_before_anyone_marks(first_island):
    # "If 3 or more dice have the same value, you may choose to reroll those dice once": the
    # roller's choice. Any player's mark used to close it, and anyone could send the reroll.
    s = first_island.apply(first_island.setup(2, {"s_card": 4}), roll(4, 1, 4, 4, 6))
    assert s.roller == 0  # round 1: seat 1 rolls
    rejected(first_island, s, Mark(1, (0, 0), (1, 2), 0), "action/reroll_pending", "wait until")
    rejected(first_island, s, KeepRoll(1), "roll/not_the_roller", "seat 1 rolled")
    kept = first_island.apply(s, KeepRoll(0))
    rejected(first_island, kept, Reroll((4, 1, 2, 3, 6)), "roll/reroll_too_late", "kept")
    assert first_island.apply(kept, Mark(1, (0, 0), (1, 2), 0)).boards[1].marks == 1
    marked = first_island.apply(s, Mark(0, (0, 0), (1, 2), 0))  # the roller's mark keeps it
    rejected(first_island, marked, Reroll((4, 1, 2, 3, 6)), "roll/reroll_too_late", "kept")
    rerolled = first_island.apply(s, Reroll((4, 1, 2, 3, 6)))
    assert first_island.apply(rerolled, Mark(1, (0, 0), (1, 2), 0)).boards[1].marks == 1


def test_players_take_turns_rolling(first_island):
    s = first_island.setup(3, {"s_card": 4})
    rollers = []
    for _ in range(4):
        rollers.append(s.roller)
        s = replace(s, round=s.round + 1)
    assert rollers == [0, 1, 2, 0]


def test_a_reroll_is_wanted_of_the_camera_only_while_one_would_be_accepted(first_island):
    fresh = first_island.setup(2, {"s_card": 4})
    assert not first_island.dice(fresh).reroll  # no roll yet: the roll is wanted
    plain = first_island.apply(fresh, roll(1, 2, 3, 4, 5))
    assert first_island.dice(plain) is None  # no value three times
    s = first_island.apply(fresh, roll(4, 1, 4, 4, 6))
    spec = first_island.dice(s)
    assert spec.reroll and spec.count == 5 and spec.showing == (4, 1, 4, 4, 6)
    assert first_island.dice(first_island.apply(s, Reroll((1, 1, 2, 3, 6)))) is None


def test_a_roll_read_while_a_reroll_is_allowed_is_the_reroll(first_island):
    s = first_island.apply(first_island.setup(2, {"s_card": 4}), roll(4, 1, 4, 4, 6))
    action = first_island.roll_action(s, roll(2, 1, 3, 5, 6))
    assert action == Reroll((2, 1, 3, 5, 6), source="test")
    assert first_island.apply(s, action).roll == (2, 1, 3, 5, 6)


def test_marking_needs_a_roll(first_island):
    rejected(
        first_island,
        first_island.setup(2, {"s_card": 4}),
        Mark(0, (0, 0), (1, 2), 0),
        "action/no_roll",
        "roll the dice first",
    )


def test_seats_are_checked(first_island, two):
    rejected(first_island, two, Mark(2, (0, 0), (1, 2), 0), "action/bad_seat", "no seat 2")


def test_the_host_can_end_the_game(first_island, two):
    s = first_island.apply(two, Finish())
    assert first_island.outcome(s).reason == "ended by the host"
    rejected(first_island, s, Mark(0, (0, 0), (1, 2), 0), "action/game_over", "the game is over")


def test_the_game_ends_when_the_island_is_full(first_island):
    from companion.games.first_island.state import Options, State

    base = first_island.setup(2, {"map": [[0, 0], [1, 0], [2, 0]], "camp_cards": False})
    assert isinstance(base, State) and base.options == Options(camp_cards=False)
    s = first_island.apply(base, roll(1, 1, 1, 2, 2))
    s = play(
        first_island,
        s,
        Mark(0, (0, 0), (1, 2), 0),
        Mark(0, (1, 0), (3, 4), 0),
        Mark(1, (0, 0), (1, 2), 0),
        Mark(1, (1, 0), (3, 4), 0),
        Advance(),
        roll(1, 2, 3, 4, 5),
        Mark(0, (2, 0), (1, 2), 0),
    )
    assert s.seat_done(0) and not s.ended  # one hex left: one mark fills the board
    s = first_island.apply(s, Mark(1, (2, 0), (3, 4), 0))
    out = first_island.outcome(s)
    assert out.reason == "the island is full"
    assert len(out.totals) == 2


def test_solo_ends_after_12_rounds(first_island):
    s = first_island.apply(first_island.setup(1, {"difficulty": "casual"}), roll(1, 2, 3, 4, 5))
    for _ in range(11):
        s = _next_round(first_island, s)
    assert s.round == 12 and not s.ended
    free = sorted(h for h in s.island.hexes if h not in s.boards[0].cells)
    s = play(first_island, s, Mark(0, free[0], (1, 2), 0))
    assert not s.ended
    s = play(first_island, s, Mark(0, free[1], (3, 4), 0))
    assert s.ended == "12 rounds played"
    report = first_island.score(s)[0]["solo"]
    assert report["difficulty"] == "casual"
    assert [c["criterion"] for c in report["criteria"]] == [
        "Scavengers points",
        "Builders points",
        "Scholars points",
        "Matriarchy points",
        "Healers points",
        "Scientists points",
        "camp cards completed",
    ]
    assert report["passed"] is False  # no cards completed
    assert first_island.outcome(s).winners == ()


def test_hard_and_impossible_solo_refuse_overrides(first_island):
    for difficulty in ("hard", "impossible"):
        s = first_island.apply(
            first_island.setup(1, {"difficulty": difficulty}), roll(1, 2, 3, 4, 5)
        )
        rejected(
            first_island,
            s,
            Mark(0, (0, 0), (1, "builders"), 0),
            "action/override_not_allowed",
            f"{difficulty} solo game",
        )


def test_difficulty_is_for_solo_only(first_island):
    with pytest.raises(IllegalAction, match="solo game only"):
        first_island.setup(2, {"difficulty": "hard"})
    with pytest.raises(IllegalAction, match="casual, standard, hard, impossible"):
        first_island.setup(1, {"difficulty": "brutal"})


def test_a_solo_game_without_camp_cards_is_refused(first_island):
    # its targets count the camp cards completed: it could never be won
    with pytest.raises(IllegalAction, match="solo game needs the camp cards"):
        first_island.setup(1, {"camp_cards": False})


def test_the_card_variant_is_refused_in_solo_rather_than_ignored(store):
    # {"variant": "easy"} in solo played the standard solo cards while reporting "easy"
    from companion.engine.session import Session

    with pytest.raises(IllegalAction, match=r"'variant' .* is for 2 to 6 players only, not 1"):
        Session.create(store, "first-island", 1, {"variant": "easy"})
    assert store.games() == []
    with pytest.raises(IllegalAction, match=r"'difficulty' .* is for 1 player only, not 3"):
        Session.create(store, "first-island", 3, {"difficulty": "hard"})

"""The score pad: a sheet for any game, built on the game contract alone."""

import ast
import subprocess
from pathlib import Path

import pytest

from companion.engine.game import get_game
from companion.engine.session import Session
from companion.errors import IllegalAction
from companion.games.score_pad.state import EnterPoints, Finish, NextRound
from tests.helpers import roll

REPO = Path(__file__).parents[2]
PAD = get_game("score-pad")


@pytest.fixture
def pad(store):
    return Session.create(store, "score-pad", 3, {"categories": "Roads, Cities", "rounds": 2})


def test_points_are_entered_per_player_and_category_and_totalled(pad):
    pad.act(EnterPoints(0, "Roads", 4, seat=0))  # Ann on her phone
    pad.act(EnterPoints(1, "Cities", 7))  # Bo's, entered at the table
    pad.act(EnterPoints(0, "Roads", 5, seat=0))  # corrected: the later entry stands
    rows = pad.score_rows()
    assert [r.total for r in rows] == [5, 7, 0]
    assert [(line.label, line.points) for line in rows[0].lines] == [("Roads", 5), ("Cities", 0)]
    assert PAD.to_act(pad.state).seats == (0, 1, 2)  # each has a category still blank


def test_a_phone_enters_only_its_own_players_points(pad):
    before = pad.seq
    with pytest.raises(IllegalAction, match="seat 2 cannot enter player 1's"):
        pad.act(EnterPoints(0, "Roads", 4, seat=1))
    with pytest.raises(IllegalAction, match="no category 'Ports'; it has Roads, Cities"):
        pad.act(EnterPoints(0, "Ports", 4))
    with pytest.raises(IllegalAction, match="whole number"):
        pad.act({"type": "enter_points", "player": 0, "category": "Roads", "points": 1.5})
    assert pad.seq == before  # nothing recorded


def test_the_button_moves_on_and_ends_the_game_after_the_last_round(pad):
    assert PAD.button(pad.state).label == "Next round"
    pad.act(EnterPoints(2, "Roads", 3))
    pad.act(PAD.button(pad.state).action)
    assert pad.state.round == 2 and PAD.button(pad.state).label == "End the game"
    pad.act(EnterPoints(1, "Roads", 9))
    pad.act(PAD.button(pad.state).action)
    outcome = pad.outcome()
    assert outcome.reason == "2 rounds played" and outcome.winners == (1,)
    assert outcome.totals == (0, 9, 3)


def test_the_dice_are_read_and_shown_with_their_sum(store):
    s = Session.create(store, "score-pad", 2, {"dice": 3})
    assert s.dice().count == 3 and sorted(s.dice().faces) == [1, 2, 3, 4, 5, 6]
    s.act(roll(6, 2, 5))
    view = PAD.player_view(s.state, None)
    assert view["roll"] == [6, 2, 5] and view["sum"] == 13
    assert [r.total for r in s.score_rows()] == [0, 0]  # a roll scores nothing by itself
    with pytest.raises(IllegalAction, match="expected 3 dice"):
        s.act(roll(6, 2))


def test_a_sheet_without_dice_wants_none_and_one_without_categories_has_a_line_a_round(store):
    s = Session.create(store, "score-pad", 2, {"dice": 0})
    assert s.dice() is None
    s.act(EnterPoints(0, "Points", 10))
    s.act(NextRound())
    s.act(EnterPoints(0, "Points", -3))
    lines = s.score_rows()[0].lines
    assert [(line.label, line.points) for line in lines] == [("Round 1", 10), ("Round 2", -3)]


def test_lowest_total_wins_where_the_sheet_says_so(store):
    s = Session.create(store, "score-pad", 2, {"low_wins": True})
    s.act(EnterPoints(0, "Points", 10))
    s.act(EnterPoints(1, "Points", 4))
    s.act(Finish())
    assert s.outcome().winners == (1,)


@pytest.mark.parametrize(
    "options, said",
    [
        ({"categories": "A, B, A"}, "'A' is named twice"),
        ({"categories": "x" * 21}, "longer than 20 characters"),
        ({"dice": 11}, "from 0 to 10"),
        ({"rounds": -1}, "from 0 to 99"),
        ({"players": 2}, "no option 'players'"),
    ],
)
def test_a_bad_sheet_is_refused_naming_what_is_wrong(store, options, said):
    with pytest.raises(IllegalAction, match=said):
        Session.create(store, "score-pad", 2, options)
    assert store.games() == []


def test_the_score_pad_uses_only_the_public_contract():
    # the proof that the platform is generic: the package imports nothing of the engine but
    # its contract, nothing of the shell, and no file outside it names it
    package = REPO / "companion" / "games" / "score_pad"
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module.startswith("companion"):
                assert node.module in ("companion.engine.game", "companion.errors") or (
                    node.module.startswith("companion.games.score_pad")
                ), f"{path.name} imports {node.module}"
    named = subprocess.run(
        [
            "git",
            "grep",
            "-l",
            "-i",
            "-E",
            "score[-_ ]pad",
            "--",
            "companion",
            "web",
            "pyproject.toml",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
    ).stdout.split()
    assert [n for n in named if not n.startswith("companion/games/score_pad/")] == []

"""My Island refuses what a curious phone or a bad file sends with a clear error, never a
crash: squares, tile numbers and catalogue keys are ASCII digits of sensible length."""

import pytest

from companion.engine.game import get_game
from companion.errors import BadBoard, IllegalAction
from companion.games.my_island.state import Place

GAME = get_game("my-island")


def _placing():
    state = GAME.setup(3, {})
    while state.phase == "select":
        state = GAME.apply(state, GAME.button(state).action)
    return state


@pytest.mark.parametrize(
    "square, tile, said",
    [
        ("A²", "5:LLLL:----", "'A²' is not a square of this board"),
        ("Z99", "5:LLLL:----", "'Z99' is not a square of this board"),
        ("D4", "#²", "the tile catalogue has no tile #²"),
        ("D4", "#" + "9" * 5000, "the tile catalogue has no tile #999"),
        ("D4", "100:LLLL:----", "is not a tile code"),
        ("D4", "5:WWWW:----", "has no land"),
        ("D4", "5:LLWW:--r-", "road end on its south edge, which is all water"),
    ],
)
def test_a_bad_square_or_tile_is_refused_by_name(square, tile, said):
    state = _placing()
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, Place(0, square, tile))
    assert said in str(refused.value)


@pytest.mark.parametrize(
    "options, said",
    [
        ({"catalogue": {"1" * 5000: "5:LLLL:----"}}, "is not a number from 1 to 999"),
        ({"catalogue": {"²": "5:LLLL:----"}}, "is not a number from 1 to 999"),
        ({"catalogue": []}, "it must map tile numbers to tile codes"),
        ({"board": ["#" * 17]}, "at most 16"),
        ({"board": ["##", "#x"]}, "may hold only # and ."),
        ({"board": ["##"]}, "at least 6"),
        ({"faces": "mining, fishing"}, "must name the six faces of a d6"),
    ],
)
def test_bad_options_are_refused_by_name(options, said):
    with pytest.raises(IllegalAction) as refused:
        GAME.setup(3, options)
    assert said in str(refused.value)


def test_a_file_that_is_not_an_object_is_refused_by_name():
    for data in ([], "x", 3, None):
        with pytest.raises(BadBoard, match="the file: must be a JSON object"):
            GAME.score_file(data)

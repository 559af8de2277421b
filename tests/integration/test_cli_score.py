"""The `companion` command run as a real process: `score first-island BOARD.json`, `--help`,
reading cut off by its reader, `-v`."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).parent.parent / "data" / "first_island" / "rulebook_example.json"


def companion(*args):
    return subprocess.run(
        [sys.executable, "-m", "companion", *args], capture_output=True, text=True, timeout=60
    )


def test_score_prints_the_breakdown_as_json():
    run = companion("score", "first-island", str(EXAMPLE))
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert set(out) == {"total", "tribes", "overrides", "camp_cards"}
    assert out["total"] == 81
    assert list(out["tribes"]) == [
        "scavengers",
        "builders",
        "scholars",
        "matriarchy",
        "healers",
        "scientists",
    ]
    assert out["tribes"]["scholars"] == {"placements": 11, "scorable": 8, "base": 5, "request": -3}
    assert (out["overrides"], out["camp_cards"]) == (-2, 22)


def _board(tmp_path, cells, **extra):
    path = tmp_path / "board.json"
    path.write_text(json.dumps({"game": "first-island", "cells": cells, **extra}))
    return str(path)


@pytest.mark.parametrize(
    "cells, message",
    [
        ([{"hex": [0, 0], "large": "elves"}], "cell 0 (hex (0,0)): unknown tribe 'elves'"),
        ([{"hex": [9, 9], "large": "builders"}], "cell 0 (hex (9,9)): the hex is off the map"),
        (
            [
                {"hex": [0, 0], "large": "builders"},
                {"hex": [1, 0], "split": 0, "halves": ["healers", "healers"]},
            ],
            "cell 1 (hex (1,0)): the same tribe (healers) on both halves",
        ),
        (
            [{"hex": [0, 0], "large": "builders"}, {"hex": [0, 0], "large": "healers"}],
            "cell 1 (hex (0,0)): the hex is listed twice",
        ),
        (
            [{"hex": [0, 0], "split": 3, "halves": ["healers", "builders"]}],
            "cell 0 (hex (0,0)): split axis must be 0, 1 or 2, not 3",
        ),
        ([{"hex": [0], "large": "builders"}], "cell 0: a hex is [q, r]"),
    ],
)
def test_a_malformed_board_exits_2_naming_the_cell(tmp_path, cells, message):
    run = companion("score", "first-island", _board(tmp_path, cells))
    assert run.returncode == 2
    assert message in run.stderr
    assert run.stdout == ""


def test_bad_claims_and_counts_are_named(tmp_path):
    cells = [{"hex": [q, 0], "large": "builders"} for q in range(3)]
    run = companion(
        "score",
        "first-island",
        _board(tmp_path, cells, claimed_camps=[[[0, 0, 0], [1, 0, 0], [5, 5, 0]]]),
    )
    assert run.returncode == 2 and "claimed camp 0: [5, 5, 0] is not a placement" in run.stderr
    run = companion("score", "first-island", _board(tmp_path, cells, overrides_used=4))
    assert run.returncode == 2 and "overrides_used must be 0 to 3" in run.stderr


def test_a_custom_map_is_used(tmp_path):
    cells = [{"hex": [q, 0], "large": "scavengers"} for q in range(3)]
    run = companion("score", "first-island", _board(tmp_path, cells, map=[[0, 0], [1, 0], [2, 0]]))
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["tribes"]["scavengers"]["request"] == 3


def test_missing_file_unknown_game_and_bad_json(tmp_path):
    run = companion("score", "first-island", str(tmp_path / "nope.json"))
    assert run.returncode == 2 and "no board file at" in run.stderr
    (tmp_path / "x.json").write_text("{")
    run = companion("score", "first-island", str(tmp_path / "x.json"))
    assert run.returncode == 2 and "not valid JSON" in run.stderr
    run = companion("score", "chess", str(EXAMPLE))
    assert run.returncode == 2 and "no game called 'chess'" in run.stderr
    run = companion("score", "first-island", str(tmp_path))
    assert run.returncode == 2 and f"{tmp_path} is a folder; give the board file" in run.stderr
    (tmp_path / "bom.json").write_bytes(b"\xef\xbb\xbf" + EXAMPLE.read_bytes())  # Notepad's
    run = companion("score", "first-island", str(tmp_path / "bom.json"))
    assert run.returncode == 0 and json.loads(run.stdout)["total"] == 81, run.stderr
    (tmp_path / "utf16.json").write_text("{}", encoding="utf-16")
    run = companion("score", "first-island", str(tmp_path / "utf16.json"))
    assert run.returncode == 2 and "is not UTF-8 text (byte 0): save it as UTF-8" in run.stderr


def test_an_exported_board_scores_the_same(tmp_path):
    from companion.engine.game import get_game
    from companion.games.first_island.state import Mark
    from tests.helpers import roll

    game = get_game("first-island")
    s = game.apply(game.setup(2, {"s_card": 4}), roll(1, 2, 3, 3, 5))
    for a in (Mark(0, (0, 0), (1, 2), 0), Mark(0, (1, 0), (3, 4))):
        s = game.apply(s, a)
    path = tmp_path / "export.json"
    path.write_text(json.dumps(game.board_file(s, 0)))
    run = companion("score", "first-island", str(path))
    assert json.loads(run.stdout)["total"] == game.score(s)[0]["total"] == -33


def test_the_help_says_what_the_device_is_and_lists_every_command():
    run = companion("--help")
    assert run.returncode == 0, run.stderr
    assert "``" not in run.stdout  # the module's reST docstring is not help text
    assert "Table Companion: reads the dice" in " ".join(run.stdout.split())
    for command in ("score", "serve", "read", "watch", "teach", "doctor", "bench"):
        assert f"\n    {command} " in run.stdout, command


def test_output_cut_off_by_its_reader_ends_quietly():
    # `companion read *.jpg | head -1`: the pipe closes after a line; this was a traceback
    photos = sorted(str(p) for p in (Path(__file__).parents[1] / "data" / "dice").glob("*.jpg"))
    assert len(photos) >= 3
    run = subprocess.Popen(
        [sys.executable, "-m", "companion", "read", *photos],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert run.stdout.readline().startswith(photos[0])
    run.stdout.close()  # as head does after its line
    err = run.stderr.read()
    run.stderr.close()
    assert run.wait(timeout=60) == 1
    assert "Traceback" not in err and "BrokenPipeError" not in err, err


def test_verbose_shows_each_still_frames_reading_whatever_the_configs_level(tmp_path):
    # -v used to be overridden by the config's [log] level, and nothing logged at debug
    import cv2

    from companion.training import scenes

    for i, frame in enumerate(scenes.roll_sequence(99, [[1, 2, 3, 4, 5]])):
        cv2.imwrite(str(tmp_path / f"f{i:03d}.png"), frame)
    (tmp_path / "c.toml").write_text('[log]\nlevel = "WARNING"\n')
    watch = ["--config", str(tmp_path / "c.toml"), "watch", "--camera", f"replay:{tmp_path}@0"]
    quiet, loud = companion(*watch), companion("-v", *watch)
    assert quiet.returncode == loud.returncode == 0, loud.stderr
    assert "DEBUG" not in quiet.stderr
    assert "DEBUG companion.vision.watch: read 5 dice: " in loud.stderr, loud.stderr


def test_a_board_file_nested_thousands_deep_is_named_not_a_traceback(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 50_000 + "]" * 50_000)
    run = companion("score", "first-island", str(path))
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "nests its lists too deeply to be a board file" in run.stderr


MY_ISLAND = Path(__file__).parents[2] / "docs" / "examples" / "my-island.json"


def test_score_my_island_prints_each_players_pp_by_line():
    """The documented example island: the rulebook's 54 (14 road, 5 water, 21 + 14 ports)
    with its two white dice and a neighbour's black die."""
    run = companion("score", "my-island", str(MY_ISLAND))
    assert run.returncode == 0, run.stderr
    first, second = json.loads(run.stdout)["players"]
    assert first["lines"] == {
        "road": 14,
        "water": 5,
        "port": 35,
        "water_tile": 0,
        "dice": 16,
        "capitol": 0,
        "auction": 0,
        "penalty": 0,
        "hand": -30,
    }
    assert (first["total"], second["total"]) == (40, -56)
    assert "+21 port D4–C5 (6+15)" in first["reasons"]


@pytest.mark.parametrize(
    "change, message",
    [
        ({"players": 7}, "players: must be 2 to 6, not 7"),
        ({"hands": [1]}, "hands: must list 2 numbers of tiles left in hand"),
        ({"rules": {"ports": "yes"}}, "rules.ports: must be true or false, not 'yes'"),
        (
            {"plays": [{"player": 1, "square": "Z9", "tile": "4:LLLL:----"}]},
            "plays[0]: 'Z9' is not a square of this board",
        ),
        (
            {"plays": [{"player": 1, "square": "D4", "tile": "4:LLLL"}]},
            "plays[0]: tile '4:LLLL' is not a tile code",
        ),
        (
            {"plays": [{"player": 3, "square": "D4", "tile": "4:LLLL:----"}]},
            "plays[0].player: must be a player from 1 to 2, not 3",
        ),
    ],
)
def test_a_malformed_island_file_exits_2_naming_the_field(tmp_path, change, message):
    data = {**json.loads(MY_ISLAND.read_text()), **change}
    path = tmp_path / "island.json"
    path.write_text(json.dumps(data))
    run = companion("score", "my-island", str(path))
    assert run.returncode == 2, run.stdout
    assert message in run.stderr and "Traceback" not in run.stderr, run.stderr


def test_a_misplayed_tile_in_the_island_file_is_named(tmp_path):
    data = json.loads(MY_ISLAND.read_text())
    data["plays"][6]["tile"] = "5:LLLL:----"  # C4 then shows land to the water of C5's tile
    path = tmp_path / "island.json"
    path.write_text(json.dumps(data))
    run = companion("score", "my-island", str(path))
    assert run.returncode == 2
    assert (
        "plays[7]: the tile's north edge (land and water) does not match the land of C4"
        in run.stderr
    ), run.stderr


FIRST_GIANTS = Path(__file__).parents[2] / "docs" / "examples" / "first-giants.json"


def test_score_first_giants_prints_each_players_total():
    """The documented example: a complete Family set with an egg (6), a complete Size set
    (12), an incomplete set (2), the News tokens held and points from effects."""
    run = companion("score", "first-giants", str(FIRST_GIANTS))
    assert run.returncode == 0, run.stderr
    ann, bo, cy = json.loads(run.stdout)["players"]
    assert (ann["set_tokens"], ann["news"], ann["total"]) == (6, 3, 9)
    assert (bo["set_tokens"], bo["news"], bo["total"]) == (12, 5, 17)
    assert (cy["set_tokens"], cy["news"], cy["points"], cy["total"]) == (2, 3, 3, 8)


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.update(players=d["players"][:1]), "players: must list 2 to 5 players"),
        (lambda d: d["news"].update({"size:large": 4}), "news: maps each News token"),
        (
            lambda d: d["players"][0]["sets"][0]["cards"][1].update(
                size="medium", family="herbivore"
            ),
            "players[0].sets[0].cards[1]: a medium herbivore cannot join a set of one small",
        ),
        (lambda d: d["players"][1]["sets"][0].update(tokens=5), "players[1].sets[0].tokens"),
        (
            lambda d: d["players"][2]["news"].append("size:small"),
            "players[2].news: size:small is held by another player",
        ),
        (
            lambda d: d["players"][0]["sets"][0]["cards"][0].update(size="huge"),
            "players[0].sets[0].cards[0].size: must be small, medium, large or egg, not 'huge'",
        ),
    ],
)
def test_a_malformed_museum_file_exits_2_naming_the_field(tmp_path, change, message):
    data = json.loads(FIRST_GIANTS.read_text())
    change(data)
    path = tmp_path / "museum.json"
    path.write_text(json.dumps(data))
    run = companion("score", "first-giants", str(path))
    assert run.returncode == 2, run.stdout
    assert message in run.stderr and "Traceback" not in run.stderr, run.stderr


FIRST_WAR = Path(__file__).parents[2] / "docs" / "examples" / "first-war.json"


def test_score_first_war_reports_each_sides_standing_and_no_winner_yet():
    run = companion("score", "first-war", str(FIRST_WAR))
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    one, two = out["sides"]
    # 2 Farmers on Fields (6) + 3 healthy Hunters on Plain and Forest (3), for 10
    assert (one["population"], one["food"], one["food_balance"]) == (10, 9, -1)
    assert (one["research"], one["points_spent"]) == (3, 12)  # C3's two Scientists; 2 types
    assert (two["food_balance"], two["research"], two["points_spent"]) == (3, 1, 0)
    assert (out["winner"], out["reason"]) == (None, None)


def test_score_first_war_names_the_winner_and_why(tmp_path):
    data = json.loads(FIRST_WAR.read_text())
    data["sides"][1]["pieces"]["K6"] = ["healer", "farmer"]  # no Scientist left there...
    data["sides"][1]["pieces"]["J5"] = ["farmer", "farmer"]  # ...nor anywhere: lost
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data))
    out = json.loads(companion("score", "first-war", str(path)).stdout)
    assert (out["winner"], out["reason"]) == (1, "player 2 lost: its last scientist lost")


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.update(sides=d["sides"][:1]), "sides: must list the 2 sides"),
        (lambda d: d["terrain"].update(A1="swamp"), "terrain: maps cells to lake, fields"),
        (lambda d: d["sides"][0]["pieces"].update(Z9=["hunter"]), "sides[0].pieces: 'Z9'"),
        (
            lambda d: d["sides"][0]["pieces"].update(F6=["hunter"]),
            "sides[0].pieces.F6: pieces stand on revealed land only",
        ),
        (lambda d: d["sides"][1]["pieces"].update(K6=["knight"]), "sides[1].pieces.K6: 'knight'"),
        (lambda d: d["sides"][0].update(active=["V-1"]), "sides[0].active: 'V-1'"),
    ],
)
def test_a_malformed_position_file_exits_2_naming_the_field(tmp_path, change, message):
    data = json.loads(FIRST_WAR.read_text())
    change(data)
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data))
    run = companion("score", "first-war", str(path))
    assert run.returncode == 2, run.stdout
    assert message in run.stderr and "Traceback" not in run.stderr, run.stderr


SMALL_ISLANDS = Path(__file__).parents[2] / "docs" / "examples" / "small-islands.json"


def test_score_small_islands_totals_each_players_rewards_ships_and_discovery_tokens():
    """The documented example: the rulebook's 9 and 10, then its 10 and 5."""
    run = companion("score", "small-islands", str(SMALL_ISLANDS))
    assert run.returncode == 0, run.stderr
    one, two = json.loads(run.stdout)["players"]
    assert (one["rewards"], one["ships"], one["total"]) == (9 + 10, 4, 23)
    assert (two["rewards"], two["ships"], two["discovery"], two["total"]) == (10 + 5, 2, 3, 20)


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.update(players=[]), "players: must list 1 to 4 players"),
        (
            lambda d: d["players"][0]["rounds"][0].update(reward="gold"),
            "players[0].rounds[0].reward: must be one of",
        ),
        (
            lambda d: d["players"][0]["rounds"][0]["islands"][1].update(flowers=1),
            "players[0].rounds[0].islands[1]: the island does not fulfil the mission",
        ),
        (
            lambda d: d["players"][1]["rounds"][0]["islands"][0].update(gold=1),
            "players[1].rounds[0].islands[0]: 'gold' is no count",
        ),
        (lambda d: d["players"][1].update(ships=-1), "players[1].ships: must be a whole number"),
    ],
)
def test_a_malformed_reward_file_exits_2_naming_the_field(tmp_path, change, message):
    data = json.loads(SMALL_ISLANDS.read_text())
    change(data)
    path = tmp_path / "rewards.json"
    path.write_text(json.dumps(data))
    run = companion("score", "small-islands", str(path))
    assert run.returncode == 2, run.stdout
    assert message in run.stderr and "Traceback" not in run.stderr, run.stderr

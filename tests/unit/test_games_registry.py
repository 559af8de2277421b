"""Games are found, not listed: every package under companion/games/ is imported and
registers its game, and `companion games` lists what is registered."""

from __future__ import annotations

import json

import pytest

from companion import games
from companion.cli.main import main
from companion.engine import game as engine
from companion.errors import UnknownGame


def test_a_game_package_dropped_in_is_found_and_registered(tmp_path, monkeypatch):
    package = tmp_path / "dropped_in_game"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from types import SimpleNamespace\n"
        "from companion.engine.game import register\n"
        "register(SimpleNamespace(name='dropped-in', title='Dropped In', min_players=2,"
        " max_players=3))\n"
    )
    (tmp_path / "not_a_package.py").write_text("raise SystemExit('a module is no game')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(engine, "_REGISTRY", dict(engine._REGISTRY))
    assert games.load([str(tmp_path)], "") == ["dropped_in_game"]
    assert engine.get_game("dropped-in").title == "Dropped In"


def test_every_package_under_games_is_registered():
    packages = games.load()
    assert "companion.games.first_island" in packages
    assert len(engine.all_games()) == len(packages)


def test_companion_games_lists_each_game_with_its_player_counts(capsys):
    assert main(["games"]) == 0
    assert "first-island: The First Island, 1 to 6 players" in capsys.readouterr().out.splitlines()
    assert main(["games", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert {"game": "first-island", "title": "The First Island", "players": [1, 6]} in listed


@pytest.mark.parametrize("name", ["no-such-game", ["first-island"]])
def test_an_unknown_game_names_the_known_ones(name):
    with pytest.raises(UnknownGame, match="known games: ") as refused:
        engine.get_game(name)
    known = str(refused.value).split("known games: ")[1].split(", ")
    assert "first-island" in known and known == sorted(known)

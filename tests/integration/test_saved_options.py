"""A host's options saved on the device for a game (My Island's tile catalogue, filled once
for their box): every new game starts from them, the options it is created with on top."""

from __future__ import annotations

import json

import pytest

from companion.engine.store import EventStore
from companion.web import create_app

pytestmark = pytest.mark.integration

PIN = "246810"


@pytest.fixture
def host(tmp_path):
    store = EventStore(tmp_path / "games.db")
    app = create_app({"HOST_PIN": PIN, "OPTIONS_DIR": str(tmp_path / "options")}, store=store)
    client = app.test_client()
    client.environ_base["HTTP_X_HOST_PIN"] = PIN
    yield client
    store.close()


def _new(host, **options):
    return host.post("/api/games", json={"game": "my-island", "players": 3, "options": options})


def test_a_new_game_picks_tiles_from_the_hosts_saved_catalogue(host, tmp_path):
    (tmp_path / "options").mkdir()
    mine = {"catalogue": {"tiles": {"1": "9:LLLL:f---", "2": "3:LLWW:r---"}}}
    (tmp_path / "options" / "my-island.json").write_text(json.dumps(mine))
    r = _new(host, ports=True)
    assert r.status_code == 201, r.get_json()
    g = r.get_json()
    assert g["view"]["catalogue"] == {"1": "9:LLLL:f---", "2": "3:LLWW:r---"}
    assert g["options"]["ports"] is True  # the lobby's options on top of the saved ones
    again = _new(host, catalogue={"tiles": {"7": "4:LLLL:----"}}).get_json()
    assert again["view"]["catalogue"] == {"7": "4:LLLL:----"}  # a game's own wins


def test_without_a_saved_file_the_example_catalogue_is_used(host):
    g = _new(host).get_json()
    assert len(g["view"]["catalogue"]) == 72


@pytest.mark.parametrize(
    "text, said",
    [
        ("{not json", "is not valid JSON"),
        ('["catalogue"]', "must hold an object of options"),
        ('{"catalogue": {"tiles": {"1": "12:LLLL"}}}', "'catalogue': tile 1: tile '12:LLLL'"),
    ],
)
def test_a_bad_saved_file_is_named_and_no_game_is_made(host, tmp_path, text, said):
    (tmp_path / "options").mkdir()
    (tmp_path / "options" / "my-island.json").write_text(text)
    r = _new(host)
    assert r.status_code == 422 and said in r.get_json()["message"], r.get_json()
    assert host.get("/api/games").get_json() == []

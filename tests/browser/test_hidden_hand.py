"""Real Chromium: one phone never receives another seat's secret, in any answer the device
sends it, for a game with a hidden hand (tests/games/hidden_hand, registered for this test
alone and served by the production server in this process)."""

import contextlib
import json
import threading
import urllib.request

import pytest
import waitress

from companion.engine import game as engine
from companion.engine.store import EventStore
from companion.web import create_app
from tests.browser.conftest import PHONE
from tests.games.hidden_hand import GAME

pytestmark = pytest.mark.browser

PIN = "2468"
ANN_SECRET, BO_SECRET = "ace-of-ann-only", "king-of-bo-only"


@pytest.fixture
def hidden_server(tmp_path, monkeypatch):
    monkeypatch.setattr(engine, "_REGISTRY", {**engine._REGISTRY, GAME.name: GAME})
    store = EventStore(tmp_path / "games.db")
    app = create_app({"HOST_PIN": PIN}, store=store)
    server = waitress.create_server(app, host="127.0.0.1", port=0, threads=8)

    def run():
        # closing the server from here, at teardown, can close a socket under the loop's
        # select (EBADF in its thread): the test is over then, so that is let go
        with contextlib.suppress(OSError):
            server.run()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}"
    app.extensions["companion.hub"].close()
    server.close()
    thread.join(timeout=10)
    store.close()


def post(url, body, token=None):
    headers = {"Content-Type": "application/json", "X-Host-Pin": PIN}  # the host's, as a rule
    if token:
        headers["X-Seat-Token"] = token
    ask = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(ask) as r:
        return json.load(r)


def heard(page) -> list[str]:
    """Every body the device sends ``page`` from now (its stream's messages included)."""
    bodies: list[str] = []

    def keep(response):
        if "/api/" in response.url and not response.url.endswith("/events"):
            bodies.append(response.text())

    page.on("response", keep)
    return bodies


def test_a_phone_never_receives_another_seats_hidden_hand(hidden_server, browser):
    game = post(f"{hidden_server}/api/games", {"game": "hidden-hand", "players": 2})["game_id"]
    phones, bodies = [], []
    for seat, name in enumerate(("Ann", "Bo")):
        phone = browser.new_context(**PHONE).new_page()
        bodies.append(heard(phone))
        phone.goto(f"{hidden_server}/play/{game}")
        phone.fill("#name", name)
        phone.get_by_role("button", name=f"Seat {seat + 1} — free").click()
        phone.wait_for_selector("#play:not([hidden])")
        phones.append(phone)
    ann, bo = phones
    table = browser.new_page()
    table_bodies = heard(table)
    table.goto(f"{hidden_server}/table/{game}")
    table.wait_for_selector("#ranking li")

    # the table deals each a secret card; each phone shows its own, and the other's count
    post(
        f"{hidden_server}/api/games/{game}/actions",
        {"action": {"type": "deal", "player": 0, "cards": [ANN_SECRET, "two"]}},
    )
    post(
        f"{hidden_server}/api/games/{game}/actions",
        {"action": {"type": "deal", "player": 1, "cards": [BO_SECRET]}},
    )
    ann.wait_for_selector(f"#hand button:has-text('{ANN_SECRET}')")
    bo.wait_for_selector(f"#hand button:has-text('{BO_SECRET}')")
    bo.wait_for_selector("#others:has-text('Ann holds 2')")
    ann_before = list(bodies[0])
    # Bo plays his card face up: now everyone may see it
    bo.get_by_role("button", name=BO_SECRET).click()
    ann.wait_for_selector("#others:has-text('Bo holds 0')")
    table.reload()
    table.wait_for_selector("#ranking li")
    # a participant who is no seat (the dealer) is ranked by name beside the seats
    assert table.locator("#ranking li").all_inner_texts() == ["The dealer\n2", "Bo\n1", "Ann\n0"]

    # nothing the device sent Bo's phone or the table names Ann's card, though Bo's phone
    # was sent the log's last action (her deal) and the game after every change
    assert bodies[1] and not any(ANN_SECRET in b for b in bodies[1])
    assert table_bodies and not any(ANN_SECRET in b for b in table_bodies)
    assert any(ANN_SECRET in b for b in bodies[0])  # Ann's own phone has it
    assert not any(BO_SECRET in b for b in ann_before)  # before he played it
    with urllib.request.urlopen(f"{hidden_server}/api/games/{game}/export.json") as r:
        export = r.read().decode()
    assert ANN_SECRET not in export  # in play, the export is what everyone may see
    with urllib.request.urlopen(f"{hidden_server}/api/games/{game}/export.csv") as r:
        assert ",The dealer,Total,2" in r.read().decode()
    for phone in phones:
        phone.context.close()
    table.close()

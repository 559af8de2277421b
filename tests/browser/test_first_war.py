"""Real Chromium: The First War on two phones and the table, from a position where the
armies meet: the first player's opening turn (a discovery, a conflict, research, a
population die read by the demo's camera), then the second player's, back to the first."""

import json
import time
import urllib.request

import pytest

from tests.browser.conftest import PHONE

pytestmark = pytest.mark.browser

POSITION = {
    "terrain": {
        "A1": "fields",
        "B2": "plain",
        "K6": "fields",
        "J6": "plain",
        "F5": "plain",
        "F6": "plain",
        "F7": "plain",
    },
    "to_move": 1,
    "sides": [
        {
            "pieces": {
                "A1": ["healer", "scientist", "farmer", "farmer"],
                "F6": ["hunter", "hunter", "hunter"],
                "F5": ["hunter", "farmer"],
            }
        },
        {
            "pieces": {
                "K6": ["healer", "scientist", "farmer", "farmer"],
                "J6": ["hunter", "hunter"],
                "F7": ["hunter"],
            }
        },
    ],
}


def game(server, game_id):
    with urllib.request.urlopen(f"{server.url}/api/games/{game_id}") as r:
        return json.loads(r.read())


def step(server, game_id, page, click, timeout=10.0):
    """Click on ``page`` and wait for the game to move."""
    seq = game(server, game_id)["seq"]
    (page.locator(click) if isinstance(click, str) else click).click()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        g = game(server, game_id)
        if g["seq"] > seq:
            return g
        time.sleep(0.05)
    pytest.fail("the game did not move")


def move(server, game_id, phone, frm, kind, to, reveal=None):
    phone.click(f'#fw-map [data-cell="{frm}"]')
    phone.get_by_role("button", name=kind, exact=True).click()
    if reveal is None:
        return step(server, game_id, phone, f'#fw-map [data-cell="{to}"]')
    phone.click(f'#fw-map [data-cell="{to}"]')
    return step(server, game_id, phone, phone.get_by_role("button", name=reveal, exact=True))


def test_the_opening_turns_a_discovery_a_conflict_and_the_population_die(war_server, browser, shot):
    server = war_server
    body = {"game": "first-war", "players": 2, "options": {"position": POSITION}}
    request = urllib.request.Request(
        f"{server.url}/api/games",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "X-Host-Pin": server.pin},
    )
    with urllib.request.urlopen(request) as r:
        game_id = json.loads(r.read())["game_id"]
    table = browser.new_page(viewport={"width": 1024, "height": 1000})
    table.goto(server.table(game_id))
    phones = []
    for seat, name in enumerate(("Ann", "Bo")):
        phone = browser.new_context(**PHONE).new_page()
        phone.goto(f"{server.url}/play/{game_id}")
        phone.fill("#name", name)
        phone.get_by_role("button", name=f"Seat {seat + 1} — free").click()
        phone.wait_for_selector("#play:not([hidden])")
        phones.append(phone)
    ann, bo = phones

    step(server, game_id, ann, ann.get_by_role("button", name="No emergency: move Hunters"))
    move(server, game_id, ann, "F6", "hunter", "F7")  # two Hunters attack Bo's on F7
    move(server, game_id, ann, "F6", "hunter", "F7")
    g = move(server, game_id, ann, "F6", "hunter", "G6", reveal="forest")  # a discovery
    assert g["view"]["terrain"]["G6"] == "forest"
    shot(ann, "phone-first-war-moves")
    step(server, game_id, ann, ann.get_by_role("button", name="Hunters moved: other movement"))
    g = step(server, game_id, ann, ann.get_by_role("button", name="Done moving: conflict"))
    assert g["view"]["battle"]["cell"] == "F7" and g["view"]["actor"] == 1
    step(server, game_id, bo, bo.get_by_role("button", name="Stack"))  # Bo's one Hunter
    g = step(server, game_id, ann, ann.get_by_role("button", name="Attack"))
    assert "F7" not in g["view"]["pieces"][1]  # 4 against 1: triple advantage, to the track
    assert g["view"]["phase"] == "research" and g["view"]["points"] == 1
    step(server, game_id, ann, ann.get_by_role("button", name="Reveal I-1 (1)"))
    g = step(server, game_id, ann, ann.get_by_role("button", name="Done: healing and growth"))
    # F7's two Hunters grow a third; F5's Hunter and Farmer wait for the die, which the
    # demo's camera rolls and reads
    assert g["dice"]["purpose"] == "population on F5"
    deadline = time.monotonic() + 30
    while game(server, game_id)["view"]["seat"] == 0 and time.monotonic() < deadline:
        time.sleep(0.2)
    g = game(server, game_id)
    assert g["view"]["seat"] == 1, g["device"]
    assert g["last_action"]["action"]["type"] == "dice_rolled"  # the die ended the turn
    assert g["last_action"]["action"]["source"] == "camera"
    f5 = [p["kind"] for p in g["view"]["pieces"][0]["F5"]]
    assert len(f5) == 3 and len(g["view"]["pieces"][0]["F7"]) == 3

    # Bo's turn: no emergency, no moves; his food and research, and his Plains grow
    step(server, game_id, bo, bo.get_by_role("button", name="No emergency: move Hunters"))
    step(server, game_id, bo, bo.get_by_role("button", name="Hunters moved: other movement"))
    g = step(server, game_id, bo, bo.get_by_role("button", name="Done moving: conflict"))
    assert g["view"]["phase"] == "research" and g["view"]["food"][1] == [8, 6]
    g = step(server, game_id, bo, bo.get_by_role("button", name="Done: healing and growth"))
    assert g["view"]["seat"] == 0 and g["view"]["turn"] == 2
    assert len(g["view"]["pieces"][1]["J6"]) == 3
    table.wait_for_selector("#status:has-text('Turn 2')")
    shot(table, "table-first-war")

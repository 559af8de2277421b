"""Real Chromium: a 3-player My Island played start to end on three phones and the table,
on a 4 by 4 board of the host's (the game's ``board`` option) so that it ends in 16 tiles,
every commerce roll read by the demo's camera from frames of rendered commerce dice."""

import json
import time
import urllib.request

import pytest

from tests.browser.conftest import PHONE

pytestmark = pytest.mark.browser

# (player, square, tile): set-up, then four rounds; "#N" is tile N of the example catalogue,
# a code is described on the phone by tapping (tiles.py: VALUE:QUADRANTS:EDGES)
PLAN = [
    (0, "B2", "#44"), (1, "C2", "5:LLLL:---r"), (2, "B3", "#46"), (2, "C3", "#49"),
    (0, "A2", "6:LLLL:-f--"), (1, "D2", "#50"), (2, "A3", "#51"),
    (1, "D3", "#52"), (2, "A1", "#53"), (0, "B1", "#54"),
    (2, "C1", "#55"), (0, "D1", "#56"), (1, "A4", "#57"),
    (0, "B4", "#58"), (1, "C4", "#59"), (2, "D4", "#60"),
]  # fmt: skip
EDGE_CYCLE = ["-", "r", "m", "f", "l", "a", "c"]  # what each tap on an edge's dot gives


def game(server, game_id):
    with urllib.request.urlopen(f"{server.url}/api/games/{game_id}") as r:
        return json.loads(r.read())


def wait_until(server, game_id, test, what, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        g = game(server, game_id)
        if test(g):
            return g
        time.sleep(0.05)
    pytest.fail(f"waited {timeout} s for {what}")


def describe(phone, code):
    """Build a tile on the phone by tapping: its value, water quarters, each edge's road."""
    value, quads, edges = code.split(":")
    phone.click("text=Describe it")
    phone.fill("#mi-value", value)
    phone.press("#mi-value", "Enter")
    for q, mark in enumerate(quads):
        if mark == "W":
            phone.click(f'svg.mi-tile [data-quarter="{q}"]')
    for d, mark in enumerate(edges):
        for _ in range(EDGE_CYCLE.index(mark)):
            phone.click(f'svg.mi-tile [data-edge="{d}"]')


def test_three_players_play_my_island_to_the_end(island_server, browser, shot):
    server = island_server
    table = browser.new_page(viewport={"width": 1024, "height": 1000})
    board = {"game": "my-island", "players": 3, "options": {"board": ["####"] * 4}}
    request = urllib.request.Request(
        f"{server.url}/api/games",
        data=json.dumps(board).encode(),
        headers={"Content-Type": "application/json", "X-Host-Pin": server.pin},
    )
    with urllib.request.urlopen(request) as r:
        game_id = json.loads(r.read())["game_id"]
    table.goto(server.table(game_id))
    phones = []
    for seat, name in enumerate(("Ann", "Bo", "Cy")):
        phone = browser.new_context(**PHONE).new_page()
        phone.goto(f"{server.url}/play/{game_id}")
        phone.fill("#name", name)
        phone.get_by_role("button", name=f"Seat {seat + 1} — free").click()
        phone.wait_for_selector("#play:not([hidden])")
        phones.append(phone)
    ann, bo, cy = phones

    # tile selection: Ann takes her first tile on her phone, the button does the rest
    ann.wait_for_selector("#status:has-text('Take a tile from the holder')")
    ann.get_by_role("button", name="I took a tile").click()
    table.wait_for_selector("#advance:has-text('Player 2 took a tile')")
    for _ in range(12):
        seq = game(server, game_id)["seq"]
        table.click("#advance")
        wait_until(server, game_id, lambda g, s=seq: g["seq"] > s, "the pick")
    table.wait_for_selector("#status:has-text('Set-up: Ann plays a tile')")

    read = 0
    for i, (seat, square, tile) in enumerate(PLAN):
        phone = phones[seat]
        g = game(server, game_id)
        if g["view"]["phase"] == "draw":  # the round's end: each refills (Bo plays out)
            while g["view"]["phase"] == "draw":
                drawer, round_ = g["view"]["actor"], g["view"]["round"]
                phones[drawer].get_by_role("button", name="I refilled my hand to 3").click()
                g = wait_until(server, game_id, lambda x, s=g["seq"]: x["seq"] > s, "a refill")
                if (round_, drawer) == (2, 1):  # Bo refills first after round 2, then plays out
                    bo.get_by_role("button", name="Play out (stop refilling)").click()
                    g = wait_until(
                        server, game_id, lambda x: 1 in x["view"]["playing_out"], "Bo playing out"
                    )
        phone.wait_for_selector("#mi-turn h2")
        phone.click(f'#mi-board [data-square="{square}"]')
        if tile.startswith("#"):
            phone.get_by_role("button", name="By number").click()
            phone.fill("#mi-number", tile[1:])
            phone.press("#mi-number", "Enter")
        else:
            describe(phone, tile)
        phone.click("#mi-put")
        phone.wait_for_selector("#mi-confirm")
        if (seat, square) == (0, "A2"):  # what the play adds, shown before it is confirmed
            check = phone.locator("#mi-turn").inner_text()
            assert "Ann puts 6:LLLL:-f-- on A2: +13 PP" in check
            assert "road A2–B2 (6+7)" in check and "then 1 white die" in check
            table.wait_for_selector("#mi-proposal:has-text('+13 PP')")
            shot(phone, "phone-my-island-check")
        seq = game(server, game_id)["seq"]
        phone.click("#mi-confirm")
        g = wait_until(server, game_id, lambda x, s=seq: x["seq"] > s, f"tile {i + 1} played")
        while g["dice"]:  # the commerce dice: the camera reads them (white, then black)
            g = wait_until(
                server, game_id, lambda x, s=g["seq"]: x["seq"] > s, "the dice read", timeout=30
            )
            assert g["last_action"]["action"]["source"] == "camera", g["device"]
            read += 1
        if square == "B1":
            shot(table, "table-my-island")
            assert "Ann: 2 in hand" in table.locator("#mi-hands").inner_text()

    table.wait_for_selector("#results:not([hidden])")
    final = game(server, game_id)
    assert read == 11  # every roll of the game, read from the camera's frames
    bo_lines = {line["key"]: line["points"] for line in final["scores"][1]["lines"]}
    assert bo_lines["road"] == 22 + 27 + 15 and bo_lines["hand"] == -30  # one tile left
    best = max(final["outcome"]["totals"])
    winner = ["Ann", "Bo", "Cy"][final["outcome"]["totals"].index(best)]
    assert f"{winner} wins with {best} points." in table.locator("#results").inner_text()
    cy.wait_for_selector("#final:not([hidden])")
    shot(table, "table-my-island-end")

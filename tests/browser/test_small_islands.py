"""Real Chromium: Small Islands played start to end, 3 players on their phones and the
table (no phone ever receives another's objective), and solo against Alexis, whose moves
the table page tells from his drawn cards."""

import json
import time
import urllib.request

import pytest

from tests.browser.conftest import PHONE

pytestmark = pytest.mark.browser


def get(server, path, token=None):
    headers = {"X-Seat-Token": token} if token else {}
    with urllib.request.urlopen(urllib.request.Request(server.url + path, headers=headers)) as r:
        return r.read().decode()


def game(server, game_id, token=None):
    return json.loads(get(server, f"/api/games/{game_id}", token))


def step(server, game_id, page, click, timeout=10.0):
    """Click on ``page`` and wait for the game to move. A page sends one request at a time
    and lets a tap go while one is out (the shell's ``single``): a tap that sent nothing,
    the page still busy with the last, is made again."""
    seq = game(server, game_id)["seq"]
    target = page.locator(click) if isinstance(click, str) else click
    sent = []
    listen = lambda r: sent.append(r) if r.method == "POST" else None  # noqa: E731
    page.on("request", listen)
    try:
        deadline = time.monotonic() + timeout
        target.click()
        retried = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            g = game(server, game_id)
            if g["seq"] > seq:
                return g
            if not sent and time.monotonic() > retried:
                target.click()
                retried = time.monotonic() + 1.0
            time.sleep(0.05)
    finally:
        page.remove_listener("request", listen)
    pytest.fail("the game did not move")


def new_game(server, browser, players, options):
    body = {"game": "small-islands", "players": players, "options": options}
    request = urllib.request.Request(
        f"{server.url}/api/games",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "X-Host-Pin": server.pin},
    )
    with urllib.request.urlopen(request) as r:
        game_id = json.loads(r.read())["game_id"]
    table = browser.new_page(viewport={"width": 1024, "height": 1000})
    table.goto(server.table(game_id))
    phones, tokens = [], []
    for seat, name in enumerate(("Ann", "Bo", "Cy")[:players]):
        phone = browser.new_context(**PHONE).new_page()
        phone.goto(f"{server.url}/play/{game_id}")
        phone.fill("#name", name)
        phone.get_by_role("button", name=f"Seat {seat + 1} — free").click()
        phone.wait_for_selector("#play:not([hidden])")
        token = phone.evaluate(  # the seat's token, as the phone keeps it
            f"() => JSON.parse(localStorage.getItem('tc:{game_id}')).token"
        )
        phones.append(phone)
        tokens.append(token)
    return game_id, table, phones, tokens


def choose(server, game_id, phones, cards):
    for phone, card in zip(phones, cards, strict=True):
        phone.wait_for_selector("#status:has-text('choose your objective')")
        phone.select_option(".si-card-now", str(card))
        phone.select_option(".si-card-later", str(card % 12 + 1))
        step(server, game_id, phone, phone.get_by_role("button", name="Keep these"))


def island(server, game_id, phone, **counts):
    phone.wait_for_selector("#status:has-text('put Houses on the islands')")
    for key, value in counts.items():
        phone.fill(f'#si-panel [data-count="{key}"]', str(value))
    return step(server, game_id, phone, phone.get_by_role("button", name="House on this island"))


def test_three_players_play_small_islands_and_no_phone_sees_anothers_objective(
    server, browser, shot
):
    game_id, table, phones, tokens = new_game(server, browser, 3, {})
    says = {}
    for rnd in range(1, 5):
        choose(server, game_id, phones, (1, 4, 7))  # flowers; a temple; every resource
        if rnd == 1:  # each phone has its own objective, and no one else's, from the device
            says = {
                s: game(server, game_id, tokens[s])["view"]["objective"]["says"] for s in range(3)
            }
            assert len(set(says.values())) == 3
            for s in range(3):
                seen = get(server, f"/api/games/{game_id}", tokens[s])
                assert all((t in seen) == (o == s) for o, t in says.items()), s
            public = get(server, f"/api/games/{game_id}") + get(
                server, f"/api/games/{game_id}/export.json"
            )
            assert not any(t in public for t in says.values())
            assert not any(t in table.content() for t in says.values())
            shot(phones[1], "phone-small-islands")
        g = game(server, game_id)
        v = g["view"]
        while v["nav"] or not (v["own_ship"][v["turn"]] or v["grey"]):  # no ship: explore on
            explorer = phones[v["turn"]]
            v = step(
                server, game_id, explorer, explorer.get_by_role("button", name="Tile 1", exact=True)
            )["view"]
        lander = phones[v["turn"]]
        name = "Land my ship" if v["own_ship"][v["turn"]] else "Land a grey ship"
        step(server, game_id, lander, lander.get_by_role("button", name=name))
        island(server, game_id, phones[0], flowers=3, tiles=3)  # 3 + 2
        island(server, game_id, phones[1], temples=1, tiles=2)  # 6 flat
        for phone in phones:
            step(server, game_id, phone, phone.get_by_role("button", name="No more Houses"))
    for s, phone in enumerate(phones):
        phone.fill(".si-ports", str(s))
        step(server, game_id, phone, phone.get_by_role("button", name="Count my ships"))
    table.wait_for_selector("#results:not([hidden])")
    final = game(server, game_id)
    assert final["outcome"]["totals"] == [4 * 5, 4 * 6 + 1, 2]
    assert "Bo wins with 25 points." in table.locator("#results").inner_text()
    assert says[1] in table.locator("#si-objectives").inner_text()  # revealed at the end
    shot(table, "table-small-islands-end")


def test_a_solo_game_against_alexis(server, browser):
    game_id, table, (ann,), _ = new_game(server, browser, 1, {"alexis": 1})
    step(server, game_id, table, table.get_by_role("button", name="Make Alexis' exploration stack"))
    deck = game(server, game_id)["view"]["deck"]
    kinds = [game(server, game_id)["view"]["exploration"][str(c)] for c in deck]
    assert (kinds.count("explore"), kinds.count("land")) == (6, 4)  # Alexis card 1's counts
    for _ in range(4):
        choose(server, game_id, [ann], (8,))  # any island; the scarcest resource
        g = game(server, game_id)
        while g["view"]["phase"] == "explore":
            v = g["view"]
            if v["turn"] == 0:
                if not v["nav"] and v["own_ship"][0]:
                    g = step(server, game_id, ann, ann.get_by_role("button", name="Land my ship"))
                    break
                g = step(server, game_id, ann, ann.get_by_role("button", name="Tile 1", exact=True))
                continue
            table.wait_for_selector("#status:has-text('draw his exploration card')")
            g = step(server, game_id, table, table.get_by_role("button", name="Draw Alexis' card"))
            card = g["view"]["card"]  # the table says what Alexis does
            said = "Alexis lands" if card["lands"] else f"Alexis takes face-up tile {card['take']}"
            table.wait_for_selector(f'#si-board:has-text("{said}")')
            g = step(server, game_id, table, table.get_by_role("button", name="Placed", exact=True))
        island(server, game_id, ann, fruits=2, tiles=2)  # 2 x 2 + 2
        step(server, game_id, ann, ann.get_by_role("button", name="No more Houses"))
        table.wait_for_selector("text=Alexis' card for his mission")  # the page has caught up
        step(server, game_id, table, table.get_by_role("button", name="Draw Alexis' card"))
        table.fill(".si-alexis-islands", "2")
        step(server, game_id, table, table.get_by_role("button", name="Alexis' Houses placed"))
    ann.fill(".si-ports", "2")
    step(server, game_id, ann, ann.get_by_role("button", name="Count my ships"))
    table.fill(".si-alexis-ports", "1")
    step(server, game_id, table, table.get_by_role("button", name="Count Alexis"))
    table.wait_for_selector("#results:not([hidden])")
    final = game(server, game_id)
    rows = {(r["seat"], r["name"]): r["total"] for r in final["scores"]}
    assert rows[(0, None)] == 4 * 6 + 2
    assert rows[(None, "Alexis")] == 1 + 20 + 8  # a port, his card's 20 PP, 1 a House (8)
    assert "Alexis" in table.locator("#results").inner_text()

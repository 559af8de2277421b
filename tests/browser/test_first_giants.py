"""Real Chromium: a 3-player First Giants set up in the lobby and played to its end on three
phones and the table: the deal, takes and refills, a card's effect, reclaims with amber and
displays (only the legal ones offered), a Size set's Set token and News token, and the end
an empty deck triggers once everyone has had as many turns."""

import json
import time
import urllib.request

import pytest

from tests.browser.conftest import PHONE

pytestmark = pytest.mark.browser

DEAL = [
    ("carnivore", "small"), ("herbivore", "small"), ("carnivore", "medium"),
    ("carnivore", "large"), ("carnivore", "egg"), ("herbivore", "medium"),
    ("flying", "small"), ("marine", "small"),
]  # fmt: skip


def game(server, game_id):
    with urllib.request.urlopen(f"{server.url}/api/games/{game_id}") as r:
        return json.loads(r.read())


def moved(server, game_id, seq, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        g = game(server, game_id)
        if g["seq"] > seq:
            return g
        time.sleep(0.05)
    pytest.fail("the game did not move")


def act(server, game_id, page, click):
    """Click (a locator or a selector) on ``page`` and wait for the game to move."""
    seq = game(server, game_id)["seq"]
    (page.locator(click) if isinstance(click, str) else click).click()
    return moved(server, game_id, seq)


def take(server, game_id, phone, site, slot, refill):
    act(server, game_id, phone, f'[data-site="{site}"] .fg-take >> nth={slot}')
    phone.wait_for_selector(f"text=Refill dig site {site + 1}")  # the page has caught up
    phone.select_option("#fg-actions .fg-family", refill[0])
    phone.select_option("#fg-actions .fg-size", refill[1])
    return act(server, game_id, phone, phone.get_by_role("button", name="Refill"))


def test_three_players_play_first_giants_to_the_end(server, browser, shot):
    table = browser.new_page(viewport={"width": 1024, "height": 1000})
    table.goto(f"{server.url}/?pin={server.pin}")
    table.select_option("#game", label="First Giants")
    table.select_option("#players", "3")
    table.click("#start button.primary")
    table.wait_for_url("**/table/*")
    game_id = table.url.rsplit("/", 1)[1]
    phones = []
    for seat, name in enumerate(("Ann", "Bo", "Cy")):
        phone = browser.new_context(**PHONE).new_page()
        phone.goto(f"{server.url}/play/{game_id}")
        phone.fill("#name", name)
        phone.get_by_role("button", name=f"Seat {seat + 1} — free").click()
        phone.wait_for_selector("#play:not([hidden])")
        phones.append(phone)
    ann, bo, cy = phones

    # the host deals the dig sites' eight cards at the table
    table.wait_for_selector("#status:has-text('Deal the dig sites')")
    for i, (family, size) in enumerate(DEAL):
        table.wait_for_selector(
            f"#fg-deal h3:has-text('Deal dig site {i // 2 + 1}: card {i % 2 + 1}')"
        )
        table.select_option("#fg-deal .fg-family", family)
        table.select_option("#fg-deal .fg-size", size)
        act(server, game_id, table, table.get_by_role("button", name="Deal"))
    ann.wait_for_selector("#status:has-text('Your turn')")
    assert ann.locator(".fg-take").count() == 8  # any card at any site

    take(server, game_id, ann, 0, 0, ("armoured", "small"))  # Ann: the small carnivore
    take(server, game_id, bo, 1, 0, ("herbivore", "large"))  # Bo: the medium carnivore
    take(server, game_id, cy, 3, 0, ("flying", "medium"))  # Cy: the small flying
    # Ann takes the small marine; its card gave her a point, recorded with its name
    act(server, game_id, ann, '[data-site="3"] .fg-take >> nth=0')
    ann.fill("#fg-reason", "Ammonite")
    ann.fill("#fg-points", "1")
    act(server, game_id, ann, ann.get_by_role("button", name="Record"))
    ann.wait_for_selector("text=Refill dig site 4")
    ann.select_option("#fg-actions .fg-family", "marine")
    ann.select_option("#fg-actions .fg-size", "medium")
    act(server, game_id, ann, ann.get_by_role("button", name="Refill"))
    take(server, game_id, bo, 0, 0, ("carnivore", "small"))  # Bo: the small herbivore
    # Cy reclaims her marker and puts the small flying on display: a new set
    act(server, game_id, cy, cy.get_by_role("button", name="Reclaim my 1 marker"))
    cy.get_by_role("button", name="small flying").click()
    act(server, game_id, cy, cy.get_by_role("button", name="Start a new set"))

    # Ann reclaims two markers: two displays, the second making a Size set
    act(server, game_id, ann, ann.get_by_role("button", name="Reclaim my 2 markers"))
    ann.get_by_role("button", name="small carnivore").click()
    act(server, game_id, ann, ann.get_by_role("button", name="Start a new set"))
    ann.get_by_role("button", name="small marine").click()
    assert ann.locator("#fg-museum button:has-text('Add here')").count() == 1
    shot(ann, "phone-first-giants")
    g = act(server, game_id, ann, ann.locator("#fg-museum button:has-text('Add here')"))
    assert g["view"]["supply"] == 19
    assert [n["holder"] for n in g["view"]["news"] if n["token"] == "size:small"] == [0]
    table.wait_for_selector("#fg-news:has-text('Ann (2 cards)')")

    # Bo reclaims for amber; Cy takes the last card and finds the deck empty: the end
    act(server, game_id, bo, bo.get_by_role("button", name="Reclaim my 2 markers"))
    act(server, game_id, bo, bo.get_by_role("button", name="Take 1 amber"))
    act(server, game_id, bo, bo.get_by_role("button", name="Take 1 amber"))
    act(server, game_id, cy, '[data-site="2"] .fg-take >> nth=0')
    act(server, game_id, cy, cy.get_by_role("button", name="The deck is empty"))
    table.wait_for_selector("#results:not([hidden])")
    final = game(server, game_id)
    assert final["outcome"]["totals"] == [2 + 5 + 1, 0, 0]  # a Set token, the News token, 1
    assert "Ann wins with 8 points." in table.locator("#results").inner_text()
    shot(table, "table-first-giants-end")

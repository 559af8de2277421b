"""Real Chromium: a score pad set up in the lobby and played start to end, on two phones and
at the table."""

import csv
import io
import urllib.request

import pytest

from tests.browser.conftest import PHONE, tap_roll

pytestmark = pytest.mark.browser


def test_a_score_pad_is_set_up_in_the_lobby_and_played_to_the_end(server, browser, shot):
    table = browser.new_page(viewport={"width": 1024, "height": 900})
    table.goto(f"{server.url}/?pin={server.pin}")  # the host starts games
    # the lobby's form is the game's options schema: the score pad's own fields
    table.select_option("#game", label="Score pad")
    table.select_option("#players", "2")
    table.fill("#opt-categories", "Roads, Cities")
    table.fill("#opt-rounds", "2")
    assert not table.locator("#opt-difficulty").count()  # The First Island's: not here
    table.click("#start button.primary")
    table.wait_for_url("**/table/*")
    game_id = table.url.rsplit("/", 1)[1]
    table.wait_for_selector("#status:has-text('Round 1: waiting for')")

    phones = []
    for seat, name in enumerate(("Ann", "Bo")):
        phone = browser.new_context(**PHONE).new_page()
        phone.goto(f"{server.url}/play/{game_id}")
        phone.fill("#name", name)
        phone.get_by_role("button", name=f"Seat {seat + 1} — free").click()
        phone.wait_for_selector("#play:not([hidden])")
        phones.append(phone)
    ann, bo = phones
    assert ann.locator("#status").inner_text() == "Your points for round 1"

    # Ann enters her own points on her phone; Bo's Cities are entered at the table
    ann.get_by_label("Roads points").fill("4")
    ann.get_by_role("button", name="Enter").first.click()
    ann.wait_for_selector("text=✓ 4")
    ann.get_by_label("Cities points").fill("2")
    ann.get_by_label("Cities points").press("Enter")
    ann.wait_for_selector("#status:has-text('your points are in')")
    shot(ann, "phone-score-pad")
    table.select_option("#pad-player", label="Bo")
    table.select_option("#pad-category", "Cities")
    table.fill("#pad-points", "7")
    table.click("#pad-entry button")
    table.wait_for_selector("#status:has-text('waiting for Bo')")
    bo.wait_for_selector("#pad-sheet td:has-text('7')")

    # the dice are read (here: tapped in at the table) and shown with their sum
    tap_roll(table, "#entry-dice", [6, 3])
    table.click("#enter-roll")
    table.wait_for_selector("#pad-sum:has-text('9')")
    bo.wait_for_selector("#pad-sum:has-text('9')")
    shot(table, "table-score-pad")

    # the round button moves on; after the last round it ends the game
    assert table.locator("#advance").inner_text() == "Next round"
    table.click("#advance")
    table.wait_for_selector("#round:has-text('Round 2')")
    bo.get_by_label("Roads points").fill("3")
    bo.get_by_label("Roads points").press("Enter")
    bo.wait_for_selector("text=✓ 3")
    table.wait_for_selector("#advance:has-text('End the game')")
    table.click("#advance")
    table.wait_for_selector("#results:not([hidden])")
    assert "Bo wins with 10 points." in table.locator("#results").inner_text()
    for phone in phones:
        phone.wait_for_selector("#final:not([hidden])")
    assert "Bo wins with 10 points." in ann.locator("#final").inner_text()
    shot(table, "table-score-pad-end")
    shot(bo, "phone-score-pad-end")

    with urllib.request.urlopen(f"{server.url}/api/games/{game_id}/export.csv") as r:
        rows = list(csv.reader(io.StringIO(r.read().decode())))
    assert ["1", "Ann", "Roads", "4"] in rows and ["2", "Bo", "Total", "10"] in rows

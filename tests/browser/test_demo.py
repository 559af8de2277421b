"""`make run`'s demo in real Chromium: the replayed camera's roll reaches the pages by itself,
and an unsure roll can be confirmed or corrected at the table."""

import json
import urllib.request

import pytest

from companion.device.demo import ROLLS
from tests.browser.conftest import PHONE, tap_roll

pytestmark = pytest.mark.browser


def ann_takes_seat_1(browser, server):
    """A phone-sized page on the game's play view, seated as Ann."""
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(f"{server.url}/play/{server.game_id}")
    phone.fill("#name", "Ann")
    phone.get_by_role("button", name="Seat 1 — free").click()
    phone.wait_for_selector("#play:not([hidden])")
    return phone


def test_the_demo_camera_reads_the_roll_onto_the_table_and_the_phones(demo_server, browser, shot):
    table = browser.new_page(viewport={"width": 1024, "height": 768})
    table.goto(demo_server.table())
    phone = ann_takes_seat_1(browser, demo_server)
    # nobody types anything: the first replayed roll settles and is read (first start
    # draws the demo frames, so allow for that)
    table.wait_for_selector("#roll .die", timeout=90_000)
    with urllib.request.urlopen(f"{demo_server.url}/api/games/{demo_server.game_id}") as r:
        game = json.loads(r.read())
    assert sorted(game["view"]["roll"]) == sorted(ROLLS[0])
    table.wait_for_selector("#device:has-text('Camera')")
    shot(table, "table-demo-camera-roll")
    phone.wait_for_selector("#dice .die")
    shot(phone, "phone-demo-camera-roll")
    log = json.loads(
        urllib.request.urlopen(
            f"{demo_server.url}/api/games/{demo_server.game_id}/export.json"
        ).read()
    )
    rolls = [e for e in log["log"] if e["action"]["type"] == "dice_rolled"]
    assert rolls[0]["action"]["source"] == "camera"
    # the table's camera view: what the camera sees, the dice read in it, for aiming it
    table.click("text=Camera view")
    table.wait_for_selector("#figures:has-text('dice found')")
    said = table.locator("#figures").inner_text()
    assert said.startswith("640×480 picture, 5 dice found, about ") and "(at least 25" in said
    assert table.evaluate("document.getElementById('view').naturalWidth") == 640
    shot(table, "table-camera-view")
    # opened without the table's link, it asks for the PIN, and a wrong one shows nothing;
    # a "PIN" a browser cannot send as a header ("€") was "cannot reach the device"
    table.goto(f"{demo_server.url}/camera?pin=%E2%82%AC")
    table.wait_for_selector("#ask-pin:not([hidden])")
    wrong = f"{(int(demo_server.pin) + 1) % 10000:04d}"
    table.fill("#pin", wrong)
    table.click("#ask-pin button")
    table.wait_for_selector("#error:has-text('host PIN')")
    assert not table.locator("#view").is_visible()
    table.fill("#pin", demo_server.pin)
    table.click("#ask-pin button")
    table.wait_for_selector("#figures:has-text('dice found')")


def test_a_phone_confirms_a_roll_the_camera_was_unsure_of(unsure_server, browser, shot):
    srv = unsure_server
    phone = ann_takes_seat_1(browser, srv)
    # the camera settles on the first roll but is sure of no die: the phone asks
    phone.wait_for_selector("#confirm:not([hidden])", timeout=90_000)
    assert "unsure" in phone.locator("#confirm").inner_text()
    # the device's reason reads as a sentence of its own, on the phone and after the
    # table's "Camera: please confirm the roll."
    why = phone.locator("#confirm-why").inner_text()
    assert why.startswith("Die 1, 2, 3, 4, 5 could not be read") and why.endswith("."), why
    table = browser.new_page(viewport={"width": 1024, "height": 768})
    table.goto(srv.table())
    table.wait_for_selector("#device:has-text('Die 1, 2, 3, 4, 5 could not be read')")
    assert table.locator("#device").inner_text().startswith("Camera: please confirm the roll. Die")
    game = json.loads(urllib.request.urlopen(f"{srv.url}/api/games/{srv.game_id}").read())
    assert game["view"]["roll"] is None  # nothing entered the game yet
    # the camera's picture of the roll, each die numbered as in the list to confirm
    phone.wait_for_function(
        "document.getElementById('confirm-picture').complete"
        " && document.getElementById('confirm-picture').naturalWidth > 0"
    )
    assert phone.locator("#confirm-picture").is_visible()
    assert phone.locator("#confirm-dice .die-row .n").all_inner_texts() == list("12345")
    table.wait_for_function("document.getElementById('entry-picture').naturalWidth > 0")
    shot(phone, "phone-confirm-unsure-roll")
    shot(table, "table-confirm-unsure-roll")
    # an incomplete answer is refused, naming the die, and changes nothing
    phone.click("#confirm-roll")
    phone.wait_for_selector("#error:has-text('Choose what die')")
    values = list(ROLLS[0])
    tap_roll(phone, "#confirm-dice", values)
    phone.click("#confirm-roll")
    phone.wait_for_selector("#confirm", state="hidden")
    table.wait_for_selector("#entry-picture", state="hidden")  # it went with the roll
    phone.wait_for_selector("#dice .die >> nth=4")
    game = json.loads(urllib.request.urlopen(f"{srv.url}/api/games/{srv.game_id}").read())
    assert game["view"]["roll"] == values
    log = json.loads(
        urllib.request.urlopen(f"{srv.url}/api/games/{srv.game_id}/export.json").read()
    )
    rolls = [e["action"] for e in log["log"] if e["action"]["type"] == "dice_rolled"]
    assert [(r["values"], r["source"]) for r in rolls] == [(values, "confirmed")]

"""Real Chromium: two phones and the table view play The First Island together."""

import json
import urllib.error
import urllib.request

import pytest

from tests.browser.conftest import PHONE, tap_roll

pytestmark = pytest.mark.browser


def claim(page, server, name, seat_label):
    page.goto(f"{server.url}/play/{server.game_id}")
    page.fill("#name", name)
    page.get_by_role("button", name=seat_label).click()
    page.wait_for_selector("#play:not([hidden])")


@pytest.fixture
def page(browser):
    """A phone's page, in a browser context of its own (its own storage: its own seat)."""
    ctx = browser.new_context(**PHONE)
    yield ctx.new_page()
    ctx.close()


def undo(page):
    page.get_by_role("button", name="Undo my last action").click()


def ranking(page):
    return page.locator("#ranking li").all_inner_texts()


def test_two_phones_and_the_table_play_a_game(server, browser, shot):
    table = browser.new_page(viewport={"width": 1024, "height": 768})
    table.goto(server.table())
    table.wait_for_selector("#status:has-text('Waiting for the roll')")
    # rolls are entered by hand here: no camera picture, not even an empty frame for one
    assert not table.locator("#entry-picture").is_visible()
    ann_ctx, bob_ctx = browser.new_context(**PHONE), browser.new_context(**PHONE)
    ann, bob = ann_ctx.new_page(), bob_ctx.new_page()
    ann.goto(server.url + "/")
    shot(ann, "phone-lobby")

    claim(ann, server, "Ann", "Seat 1 — free")
    bob.goto(f"{server.url}/play/{server.game_id}")
    bob.wait_for_selector("#claim:not([hidden])")
    shot(bob, "phone-claim-seat")
    claim(bob, server, "Bob", "Seat 2 — free")
    table.wait_for_function("document.querySelector('#ranking').innerText.includes('Bob')")

    # A roll with a die not chosen is refused at the table, naming the die.
    table.click("#enter-roll")
    assert table.locator("#error").inner_text() == "Choose what die 1 shows."

    # The roll is entered at the table and arrives live on both phones.
    tap_roll(table, "#entry-dice", [1, 2, 3, 3, 5])
    table.click("#enter-roll")
    for phone in (ann, bob):
        phone.wait_for_selector("#dice .die >> nth=4")
        assert phone.locator("#status").inner_text() == "Your move: mark hex 1 of 2"
    assert ann.locator("#dice").inner_text().split() == [
        "Sv",
        "Scavengers",
        "Bu",
        "Builders",
        "Sc",
        "Scholars",
        "Sc",
        "Scholars",
        "He",
        "Healers",
    ]
    # every tribe's name fits on its die at phone width (none cut off)
    cut = ann.eval_on_selector_all(
        "#dice .die", "els => els.filter(e => e.scrollWidth > e.clientWidth).map(e => e.innerText)"
    )
    assert cut == []

    # Ann splits hex (0,0) between Scavengers and Builders.
    ann.get_by_role("button", name="die 1: Scavengers").click()
    ann.get_by_role("button", name="die 2: Builders").click()
    ann.locator('g.hex[data-hex="0,0"]').click()
    shot(ann, "phone-choose-split")
    ann.get_by_role("button", name="split 0 scavengers / builders").click()
    ann.wait_for_selector("#status:has-text('mark hex 2 of 2')")
    assert ann.locator('g.hex[data-hex="0,0"] polygon.placement').count() == 2

    # Bob marks a large Scholars hex from the two Scholar dice.
    bob.get_by_role("button", name="die 3: Scholars").click()
    bob.get_by_role("button", name="die 4: Scholars").click()
    bob.locator('g.hex[data-hex="1,0"]').click()
    bob.get_by_role("button", name="Mark (1,0) all Scholars").click()
    bob.wait_for_selector("#status:has-text('mark hex 2 of 2')")
    shot(bob, "phone-marked")

    # Scores update on every page: two strays cost Ann 2, one stray costs Bob 1.
    table.wait_for_function(
        "document.querySelector('#ranking').innerText.includes('-31')"
        " && document.querySelector('#ranking').innerText.includes('-32')"
    )
    assert ranking(table) == ["Bob\n-31", "Ann\n-32"]
    ann.wait_for_selector("#score b:has-text('-32')")
    shot(table, "table-live")

    # Ann takes her mark back; the table follows.
    ann.get_by_role("button", name="Undo my last action").click()
    ann.wait_for_selector("#status:has-text('mark hex 1 of 2')")
    table.wait_for_function("document.querySelector('#ranking').innerText.includes('-30')")
    assert ann.locator('g.hex[data-hex="0,0"] polygon.placement').count() == 0

    # A reload keeps the seat and the board.
    bob.reload()
    bob.wait_for_selector("#play:not([hidden])")
    assert bob.locator("#who").inner_text() == "Bob"
    assert bob.locator('g.hex[data-hex="1,0"] polygon.placement').count() == 1

    # The host ends the game from the table (a confirm dialog); everyone sees the result.
    table.once("dialog", lambda d: d.accept())
    table.click("#finish")
    table.wait_for_selector("#results:not([hidden])")
    # After her undo Ann has no strays (-30); Bob kept his (-31).
    assert "Ann wins with -30 points" in table.locator("#results").inner_text()
    bob.wait_for_selector("#status:has-text('Game over')")
    shot(table, "table-end")
    shot(bob, "phone-end")
    ann_ctx.close()
    bob_ctx.close()
    table.close()


def test_a_game_code_typed_as_it_was_read_out_finds_the_game(server, page):
    page.goto(server.url + "/")
    code = server.game_id
    page.fill("#code", f" {code[:2].lower()} {code[2:].lower()}-")  # "ke 4tw-"
    page.get_by_role("button", name="Join").click()
    page.wait_for_url(f"{server.url}/play/{code}")
    page.wait_for_selector("#claim:not([hidden])")


def test_a_phone_cannot_act_for_another_seat(server, page):
    claim(page, server, "Ann", "Seat 1 — free")
    result = page.evaluate(
        """async (id) => {
            const r = await fetch(`/api/games/${id}/actions`, {method: "POST",
              headers: {"Content-Type": "application/json"},
              body: JSON.stringify({action: {type: "skip_camp_card", seat: 1}})});
            return [r.status, (await r.json()).error];
        }""",
        server.game_id,
    )
    assert result == [403, "auth/seat"]


def test_a_phone_shows_its_seat_taken_with_its_live_link_down(server, page):
    # The phone showed its seat only once the live stream told it the seat was taken: with
    # the link down, or the change missed, it stayed on the seat list, the claim made.
    page.route("**/events", lambda route: route.abort())
    claim(page, server, "Ann", "Seat 1 — free")
    assert page.locator("#who").inner_text() == "Ann"


def test_a_phone_says_its_live_link_is_down_until_it_is_back(server, page):
    # The claim's own render said "Waiting for the roll" over "Connection lost": the player
    # trusted a page that no change made at the table would reach.
    page.route("**/events", lambda route: route.abort())
    claim(page, server, "Ann", "Seat 1 — free")
    status = page.locator("#status")
    assert status.inner_text() == "Connection lost: reconnecting…"
    page.unroute("**/events")  # the stream reconnects by itself
    page.wait_for_selector("#status:has-text('Your roll: roll the dice')", timeout=15_000)


def test_a_phone_whose_fetch_failed_asks_again_with_its_stream_open(server, page):
    # A fetch of the game that failed, its stream still open, left the page saying the link
    # was down, and showing the game as it was, until some change at the table came.
    # Every fetch fails until the page says so: with one failing, a late event of the claim
    # could fetch again at once and the line stood for a few ms, unseen (a flaky run).
    claim(page, server, "Ann", "Seat 1 — free")
    game = f"**/api/games/{server.game_id}"
    page.route(game, lambda route: route.abort())
    post(server, f"/api/games/{server.game_id}/seats/1", {"name": "Bo"})  # the stream tells
    page.wait_for_selector("#status:has-text('Connection lost')")
    page.unroute(game)  # no further change comes: only the page's own asking again mends it
    page.wait_for_selector("#status:has-text('Your roll: roll the dice')", timeout=10_000)


def test_the_table_says_its_live_link_is_down_after_a_roll_is_entered(server, browser):
    # A roll entered at the table drew the page again, and its status line went back to the
    # game's phase with the live link still down.
    table = browser.new_page(viewport={"width": 1024, "height": 768})
    table.route("**/events", lambda route: route.abort())
    table.goto(server.table())
    table.wait_for_selector("#status:has-text('Connection to the device lost')")
    tap_roll(table, "#entry-dice", [1, 2, 3, 3, 5])
    table.click("#enter-roll")
    table.wait_for_selector("#roll .die")  # the roll's answer drawn
    assert table.locator("#status").inner_text() == "Connection to the device lost: reconnecting…"
    table.unroute("**/events")
    table.wait_for_selector("#status:has-text('marking')", timeout=15_000)
    table.close()


# The page's first fetch of the game is answered, but held back in the page until the test
# lets it go: an older answer that comes after a newer one.
HOLD_FIRST_FETCH = """
const realFetch = window.fetch;
let held = false;
window.fetch = async (path, options) => {
  const answer = await realFetch(path, options);
  if (!held && /^\\/api\\/games\\/[^/]+$/.test(path) && options.method === "GET") {
    held = true;
    await new Promise((go) => { window.letFirstFetchGo = go; });
  }
  return answer;
};
"""


def test_an_older_answer_coming_last_does_not_undo_the_page(server, page):
    # The answer to the page's first fetch, the seats all free, came after the claim's:
    # the phone went back to the seat list, its seat taken.
    page.add_init_script(HOLD_FIRST_FETCH)
    claim(page, server, "Ann", "Seat 1 — free")
    page.evaluate("async () => { letFirstFetchGo(); await new Promise((r) => setTimeout(r, 300)) }")
    assert page.locator("#play").is_visible() and not page.locator("#claim").is_visible()


def test_a_phone_page_stays_under_150_kb(server, page):
    """Everything the phone loads comes from the device, and it all weighs under 150 KB."""
    sizes, hosts = {}, set()

    def seen(response):
        hosts.add(response.url.split("/")[2])
        if "/events" not in response.url:  # the live stream never ends
            sizes[response.url] = len(response.body())

    page.on("response", seen)
    claim(page, server, "Ann", "Seat 1 — free")
    page.wait_for_load_state("networkidle")
    page.reload()
    page.wait_for_selector("#play:not([hidden])")
    total = sum(sizes.values())
    print(f"phone page: {total} bytes in {len(sizes)} responses")
    assert hosts == {server.url.split("/")[2]}  # no CDN, no external fonts
    assert total < 150_000


ROLL_1 = {"type": "dice_rolled", "values": [1, 2, 3, 3, 5]}


def test_a_double_tap_on_undo_takes_back_one_action(server, page):
    # A tap that lands twice (a double tap, a slow network) sent two undos, and the player
    # lost a second mark they had not asked to take back.
    claim(page, server, "Ann", "Seat 1 — free")
    token = page.evaluate(f"JSON.parse(localStorage.getItem('tc:{server.game_id}')).token")
    post(server, f"/api/games/{server.game_id}/actions", {"action": ROLL_1})  # the host's roll
    moves = [
        ({"type": "mark", "seat": 0, "hex": [0, 0], "picks": [1, 2], "axis": 0}, token),
        ({"type": "mark", "seat": 0, "hex": [1, 0], "picks": [3, 4]}, token),
    ]
    for action, seat_token in moves:
        status = page.evaluate(
            """async ([id, action, token]) => (await fetch(`/api/games/${id}/actions`, {
                method: "POST", body: JSON.stringify({action}), headers: {
                  "Content-Type": "application/json", "X-Seat-Token": token || ""}})).status""",
            [server.game_id, action, seat_token or None],
        )
        assert status == 200, action
    page.wait_for_selector('g.hex[data-hex="1,0"] polygon.placement')
    page.get_by_role("button", name="Undo my last action").dblclick()
    page.wait_for_timeout(1000)  # both taps answered, if both were sent
    with urllib.request.urlopen(f"{server.url}/api/games/{server.game_id}/export.json") as r:
        kinds = [entry["kind"] for entry in json.load(r)["log"]]
    assert kinds == ["action", "action", "action", "undo"], kinds
    assert page.locator('g.hex[data-hex="0,0"] polygon.placement').count() == 2  # kept


def test_a_tap_while_the_device_is_away_says_what_to_do(server, page):
    # The page showed the browser's own "Failed to fetch".
    claim(page, server, "Ann", "Seat 1 — free")
    server.proc.terminate()
    server.proc.wait(timeout=10)
    undo(page)
    page.wait_for_selector("#error:has-text('Cannot reach the device')")
    assert page.locator("#error").inner_text() == (
        "Cannot reach the device: check this phone's Wi-Fi and that the device is on, then "
        "try again."
    )
    page.evaluate("document.getElementById('error').textContent = ''")
    undo(page)  # the page still answers
    page.wait_for_selector("#error:has-text('Cannot reach the device')")


def test_a_tap_just_after_claiming_a_seat_is_taken(server, page):
    # Claiming a seat fetches the game again, and the stream's news of the seat fetches it
    # too; the page showed the seat from the first answer while the claim still held the
    # page's one request for the other, so a first tap then was let go without a word.
    page.goto(f"{server.url}/play/{server.game_id}")
    page.fill("#name", "Ann")
    claimed, fetches, late = [], [], []

    def second_late(route):  # the second fetch of the game after the claim answers late
        if claimed:
            fetches.append(route)
        if len(fetches) == 2:
            late.append(route)
        else:
            route.continue_()

    page.route("**/seats/*", lambda route: (claimed.append(route), route.continue_()))
    page.route(f"**/api/games/{server.game_id}", second_late)
    page.get_by_role("button", name="Seat 1 — free").click()
    page.wait_for_selector("#play:not([hidden])")
    held = []
    page.route("**/undo", lambda route: held.append(route))
    undo(page)
    page.wait_for_timeout(500)
    for route in late:
        route.continue_()
    page.wait_for_timeout(500)
    assert (len(fetches), len(held)) == (2, 1)  # both fetches made, and the tap sent


def test_a_tap_the_device_never_answers_is_let_go_after_10_s(server, page):
    # A Wi-Fi gone half-way leaves a request unanswered; the page held it, and with it every
    # tap after it (one request at a time), for as long as the browser waited.
    claim(page, server, "Ann", "Seat 1 — free")
    held = []
    page.route("**/undo", lambda route: held.append(route))  # taken in, never answered
    undo(page)
    page.wait_for_selector("#error:has-text('did not answer')", timeout=20_000)
    assert page.locator("#error").inner_text() == (
        "The device did not answer in 10 s: check this phone's Wi-Fi. The page shows whether "
        "your tap arrived once the device answers again."
    )
    page.unroute("**/undo")
    undo(page)  # taps are taken again
    page.wait_for_selector("#error:has-text('nothing to undo')")
    assert len(held) == 1


def test_the_table_undoes_a_wrong_roll_and_takes_the_right_one(server, browser):
    # A roll the camera read wrong with confidence, or one entered wrong, could be taken
    # back only by holding the device's button: a table without one had no way back.
    table = browser.new_page(viewport={"width": 1024, "height": 768})
    table.goto(server.table())
    table.wait_for_selector("#status:has-text('Waiting for the roll')")
    assert not table.locator("#undo").is_visible()  # nothing to undo yet
    # said once ("No camera: enter each roll by hand. Enter rolls by hand." before)
    assert table.locator("#device").inner_text() == "No camera: enter rolls by hand."
    assert not table.locator("#camera-link").is_visible()  # no camera, nothing to aim
    tap_roll(table, "#entry-dice", [1, 2, 3, 3, 5])
    table.click("#enter-roll")
    table.wait_for_selector("#status:has-text('marking')")
    asked = []
    table.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    table.click("#undo")
    table.wait_for_selector("#status:has-text('Waiting for the roll')")
    assert asked == ["Undo this? Rolled Scavengers, Builders, Scholars, Scholars, Healers."]
    tap_roll(table, "#entry-dice", [1, 2, 3, 4, 5])
    table.click("#enter-roll")
    table.wait_for_selector("#status:has-text('marking')")
    with urllib.request.urlopen(f"{server.url}/api/games/{server.game_id}") as r:
        assert json.load(r)["view"]["roll"] == [1, 2, 3, 4, 5]
    table.once("dialog", lambda d: d.dismiss())  # "Cancel": nothing is undone
    table.click("#undo")
    table.wait_for_timeout(500)
    with urllib.request.urlopen(f"{server.url}/api/games/{server.game_id}") as r:
        assert json.load(r)["view"]["roll"] == [1, 2, 3, 4, 5]
    # the game ended by mistake ("End game now") goes on again
    table.once("dialog", lambda d: d.accept())
    table.click("#finish")
    table.wait_for_selector("#results:not([hidden])")
    # "Camera: waiting for a roll" no more: a finished game waits for none
    assert not table.locator("#device").is_visible()
    asked.clear()
    table.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    table.click("#undo")
    table.wait_for_selector("#results", state="hidden")
    assert asked == ["Undo this? Ended the game."]
    assert table.locator("#status").inner_text() == "Players are marking their islands"
    assert table.locator("#device").is_visible()
    table.close()


def test_a_finished_game_is_played_again_from_the_table(server, browser):
    # The table showed the final scores and no way on: "/" had to be typed in.
    table = browser.new_page(viewport={"width": 1024, "height": 768})
    table.goto(server.table())
    table.wait_for_selector("#status:has-text('Waiting for the roll')")
    assert not table.locator("#again").is_visible()  # only once the game is over
    phone = browser.new_context(**PHONE).new_page()
    claim(phone, server, "Ann", "Seat 1 — free")
    table.once("dialog", lambda d: d.accept())
    table.click("#finish")
    table.wait_for_selector("#results:not([hidden])")
    phone.wait_for_selector("#status:has-text('Game over')")
    # the phone shows who won and the ranking, as the table does (it showed neither), and no
    # "null" where the camp cards' Skip button had been
    final = phone.locator("#final").inner_text()
    assert "Ann and Player 2 win with -30 points." in final and "Ann" in final
    assert phone.locator("#final .ranking li").count() == 2
    assert "null" not in phone.locator("main").inner_text()
    assert "Cards are scored before the next roll" not in phone.locator("#cards").inner_text()
    assert not phone.locator("#next").is_visible()  # no next game yet
    table.get_by_role("button", name="Play again").click()
    table.wait_for_url(lambda url: server.game_id not in url)
    again = table.url.rsplit("/", 1)[1]
    # the phones of the game just over are offered the new one, without a reload
    phone.wait_for_selector("#next:not([hidden])")
    phone.get_by_role("link", name="join it").click()
    phone.wait_for_url(f"**/play/{again}")
    phone.context.close()
    table.wait_for_selector("#status:has-text('Waiting for the roll')")
    with urllib.request.urlopen(f"{server.url}/api/games/{server.game_id}") as r:
        before = json.load(r)
    with urllib.request.urlopen(f"{server.url}/api/games/{again}") as r:
        after = json.load(r)
    assert after["game"] == before["game"] and after["players"] == before["players"]
    assert after["options"] == before["options"] and after["outcome"] is None
    table.close()


def post(server, path, body):
    """POST ``body`` to the device as JSON, as the host's page would, and return its
    answer."""
    ask = urllib.request.Request(
        f"{server.url}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "X-Host-Pin": server.pin},
    )
    with urllib.request.urlopen(ask) as r:
        return json.load(r)


def test_the_lobby_lists_games_in_play_and_folds_away_the_finished(server, page):
    # A device left plugged in lists every game it ever kept; the ones in play came below
    # the finished ones made after them.
    done = post(
        server, "/api/games", {"game": "first-island", "players": 2, "options": {"s_card": 4}}
    )["game_id"]
    post(server, f"/api/games/{done}/actions", {"action": {"type": "finish"}, "pin": server.pin})
    page.goto(server.url + "/")
    page.wait_for_selector("#finished:not([hidden])")
    assert page.locator("#games li .code").all_inner_texts() == [server.game_id]
    assert page.locator("#finished summary").inner_text() == "Finished games (1)"
    assert not page.locator("#finished-games").is_visible()  # folded until asked for
    page.click("#finished summary")
    assert page.locator("#finished-games li .code").all_inner_texts() == [done]
    assert "results" in page.locator("#finished-games li").inner_text()


def test_a_lobby_left_open_follows_the_games_made_and_ended(server, page):
    # The lobby read the list once: a game made at the table did not show on a phone already
    # open at the lobby, nor a game that ended leave the games in play, until a reload.
    page.goto(server.url + "/")
    page.wait_for_selector(f"#games li:has-text('{server.game_id}')")
    made = post(
        server, "/api/games", {"game": "first-island", "players": 3, "options": {"s_card": 4}}
    )["game_id"]
    page.wait_for_selector(f"#games li:has-text('{made}')")
    post(server, f"/api/games/{made}/actions", {"action": {"type": "finish"}, "pin": server.pin})
    page.wait_for_selector("#finished-count:has-text('1')")
    assert page.locator("#games li .code").all_inner_texts() == [server.game_id]
    post(server, f"/api/games/{made}/undo", {"pin": server.pin})  # not over after all
    page.wait_for_selector("#finished[hidden]", state="attached")
    assert page.locator("#games li .code").all_inner_texts() == [made, server.game_id]
    req = urllib.request.Request(  # deleted by the host: it leaves the list
        f"{server.url}/api/games/{made}",
        data=json.dumps({"pin": server.pin}).encode(),
        headers={"Content-Type": "application/json"},
        method="DELETE",
    )
    urllib.request.urlopen(req).close()
    page.wait_for_selector(f"#games li:has-text('{made}')", state="detached")


def test_a_roll_picture_is_let_go_once_no_roll_waits(server, page):
    # After a restart the device numbers its pictures from 1 again: a page that kept the
    # last src showed the picture of the roll before the restart.
    page.goto(server.url + "/")
    srcs = page.evaluate(
        """() => {
            const img = document.createElement("img"), seen = [];
            const rolls = [{game_id: "G", picture: 1}, null, {game_id: "G", picture: 1},
                           {game_id: "G", picture: 2}, {game_id: "G"}];
            for (const p of rolls) {
                TC.showPicture(img, p, {pin: "0000"});
                seen.push([img.dataset.shown, img.hasAttribute("src"), img.hidden]);
            }
            return seen;
        }"""
    )
    # each roll's picture is asked for once (here the device has none: none is shown)
    assert srcs == [
        ["G:1", False, True],
        ["", False, True],
        ["G:1", False, True],  # asked for again after none waited
        ["G:2", False, True],
        ["", False, True],  # a roll waiting without a picture (no camera frame): none shown
    ]


def test_the_table_page_on_a_phone_keeps_the_join_link_inside_its_card(server, page):
    # A host often opens the table page on a phone; the join link (the device's address,
    # which may be long) wraps inside its card instead of running past the screen's edge.
    page.goto(f"{server.url}/table/{server.game_id}")
    link = page.locator("#join-url")
    assert link.inner_text().endswith(f"/play/{server.game_id}")
    link_right, card_text_right = page.evaluate(
        "() => { const u = document.querySelector('#join-url'); return"
        " [u.getBoundingClientRect().right, u.parentElement.getBoundingClientRect().right]; }"
    )
    assert link_right <= card_text_right


@pytest.mark.parametrize("path", ["/", "/play/{game}", "/table/{game}"])
def test_a_page_opened_for_the_first_time_asks_for_nothing_the_device_lacks(server, page, path):
    # Chromium asked for /favicon.ico, as no page linked an icon, and the device answered
    # 404: a failed request in every phone's console on its first visit.
    failed = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.on("console", lambda m: failed.append(m.text) if m.type == "error" else None)
    page.goto(server.url + path.format(game=server.game_id))
    page.wait_for_load_state("networkidle")
    assert failed == []
    assert (
        page.evaluate("fetch(document.querySelector('link[rel=icon]').href).then(r => r.status)")
        == 200
    )


def test_the_icon_is_there_for_whatever_asks_at_favicon_ico(server):
    with urllib.request.urlopen(server.url + "/favicon.ico") as r:
        assert r.headers["Content-Type"].startswith("image/svg+xml")
        assert b"<svg" in r.read()


def test_the_roller_keeps_or_rerolls_before_the_others_mark(server, browser, shot):
    # Any player's mark closed the roller's choice to reroll, and anyone could send it.
    table = browser.new_page(viewport={"width": 1024, "height": 768})
    table.goto(server.table())
    table.wait_for_selector("#status:has-text('Waiting for the roll')")
    phones = []
    for seat, name in enumerate(("Ann", "Bo")):
        phone = browser.new_context(**PHONE).new_page()
        claim(phone, server, name, f"Seat {seat + 1} — free")
        phones.append(phone)
    ann, bo = phones
    tap_roll(table, "#entry-dice", [4, 1, 4, 4, 6])  # three Matriarchy: a reroll is allowed
    table.click("#enter-roll")
    table.wait_for_selector("#status:has-text('Ann rolled 3 or more alike')")
    bo.wait_for_selector("#status:has-text('Waiting for Ann to reroll or keep the roll')")
    assert bo.locator("#dice button").count() == 0  # nothing to pick while Ann chooses
    ann.wait_for_selector("#keep-box:not([hidden])")
    shot(ann, "phone-roller-may-reroll")
    ann.click("#keep")
    bo.wait_for_selector("#status:has-text('Your move: mark hex 1 of 2')")
    assert ann.locator("#keep-box").is_hidden()
    for phone in phones:
        phone.context.close()


def test_a_game_left_behind_is_ended_then_deleted_from_the_lobby(server, page):
    # The lobby filled with games "in play" that nobody would finish, with no way to tidy it.
    page.goto(server.url + "/")
    row = page.locator(f"#games li:has-text('{server.game_id}')")
    row.wait_for()
    page.once("dialog", lambda d: d.accept("0000"))  # a wrong PIN: nothing changes
    row.get_by_role("button", name="End").click()
    page.wait_for_selector("#list-error:has-text('host PIN')")
    page.once("dialog", lambda d: d.accept(server.pin))
    row.get_by_role("button", name="End").click()
    page.wait_for_selector("#games li:has-text('No game in play.')")
    page.click("#finished summary")
    done = page.locator(f"#finished-games li:has-text('{server.game_id}')")
    page.once("dialog", lambda d: d.accept(server.pin))
    done.get_by_role("button", name="Delete").click()
    page.wait_for_selector("#finished", state="hidden")
    with pytest.raises(urllib.error.HTTPError):
        urllib.request.urlopen(f"{server.url}/api/games/{server.game_id}")


def test_a_table_screen_is_the_host_only_with_the_host_pin(server, browser, shot):
    # The table page printed the host PIN to anyone who opened it: ending a game, the
    # table's undo, deleting and taking over a seat were open to every phone on the Wi-Fi.
    other = browser.new_page(viewport={"width": 1024, "height": 768})
    other.goto(f"{server.url}/table/{server.game_id}")
    other.wait_for_selector("#become-host:not([hidden])")
    assert server.pin not in other.content()
    for host_only in ("#finish", "#entry", "#undo", "#host-pin"):
        assert not other.locator(host_only).is_visible(), host_only
    other.fill("#host-pin-input", "000000")
    other.click("#become-host button")
    other.wait_for_selector("#host-error:has-text('host')")
    other.fill("#host-pin-input", server.pin)
    other.click("#become-host button")
    other.wait_for_selector("#finish:not([hidden])")
    assert other.locator("#entry").is_visible() and other.locator("#become-host").is_hidden()
    assert other.locator("#pin-shown").inner_text() == server.pin  # to make another the host
    shot(other, "table-became-host")
    other.close()


def test_a_player_gets_their_seat_back_on_a_second_browser_with_the_hosts_approval(
    server, browser, shot
):
    # A phone that changed (another browser, a private tab, a flat battery) was locked out
    table = browser.new_page(viewport={"width": 1024, "height": 768})
    table.goto(server.table())
    first = browser.new_context(**PHONE).new_page()
    claim(first, server, "Ann", "Seat 1 — free")
    second = browser.new_context(**PHONE).new_page()  # Ann's other browser: no token there
    second.goto(f"{server.url}/play/{server.game_id}")
    second.fill("#name", "Ann")
    second.get_by_role("button", name="Seat 1: Ann — ask for it").click()
    second.wait_for_selector("#seats:has-text('waiting for the host')")
    table.wait_for_selector("#seat-requests:has-text('A phone asks for seat 1 (Ann)')")
    shot(table, "table-seat-request")
    table.get_by_role("button", name="Give it").click()
    second.wait_for_selector("#play:not([hidden])")
    assert second.locator("#who").inner_text() == "Ann"
    table.wait_for_selector("#seat-requests", state="hidden")
    # the first browser no longer holds the seat, and is told what to do
    first.get_by_role("button", name="Undo my last action").click()
    first.wait_for_selector("#claim-error:has-text('tap your seat to ask the host for it')")
    for page in (first, second):
        page.context.close()

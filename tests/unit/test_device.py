"""The device's decisions about settled rolls, fed Settled events directly (no camera)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.device.device import Device, _roll_text
from companion.engine.game import DiceSpec
from companion.engine.hub import Hub
from companion.engine.store import EventStore
from companion.vision.settle import Settled


class Watcher:  # only what Device reads when it is not stepping frames
    status = "waiting for a roll"


@pytest.fixture
def rig(tmp_path):
    hub = Hub(EventStore(tmp_path / "g.db"))
    session = hub.create("first-island", 2, {"variant": "easy", "s_card": 4})
    device = hub.attach(Device(hub, Watcher()))
    seen = []
    hub_announce = hub.announce_device
    hub.announce_device = lambda d: (seen.append(d), hub_announce(d))
    return device, session, seen


def rolls(session):
    kinds = ("dice_rolled", "reroll")
    return [e.payload for e in session.entries if e.payload.get("type") in kinds]


def test_a_sure_roll_is_entered_with_its_source_and_confidence(rig, caplog):
    device, session, seen = rig
    caplog.set_level("INFO", logger="companion.device.device")
    device.on_settled(Settled("roll", (1, 2, 3, 4, 5), 0.934))
    # the log says it once, in brackets once (it read "((last roll read: ...))")
    # and names the tribes as the table page does: players read tribes, not numbers
    said = "(last roll read: 1 2 3 4 5 — Scavengers, Builders, Scholars, Matriarchy, Healers)"
    assert f"device: waiting for a roll {said}" in caplog.messages
    assert rolls(session) == [
        {
            "type": "dice_rolled",
            "values": [1, 2, 3, 4, 5],
            "source": "camera",
            "confidence": 0.934,
            "seat": None,
        }
    ]
    assert device.state == "waiting for a roll" and device.message == said
    assert seen[-1]["message"] == said


def test_only_a_roll_the_camera_enters_calls_what_waits_for_one(rig):
    """The panel's buzzer chirps for a roll entered (serve hangs it on ``accepted``); not
    for one left to confirm, nor for a roll the game refuses."""
    device, _, _ = rig
    chirps = []
    device.accepted.append(lambda: chirps.append(device.state))
    device.on_settled(Settled("wrong_count", (1, 2, 3, 4), 0.9, message="4 of 5 dice seen"))
    device.on_settled(Settled("roll", (1, 2, 3, 4, 9), 0.9))  # a die has no 9: refused
    assert chirps == []
    device.on_settled(Settled("roll", (1, 2, 3, 4, 5), 0.9))
    assert chirps == ["waiting for a roll"]


def test_the_wrong_count_waits_for_a_person_and_nothing_is_entered(rig):
    device, session, _ = rig
    device.on_settled(Settled("wrong_count", (1, 2, 3, 4), 0.9, message="4 of 5 dice seen"))
    assert rolls(session) == []
    assert (device.state, device.message) == ("needs confirmation", "4 of 5 dice seen")
    assert device.pending == {
        "game_id": session.game_id,
        "values": [1, 2, 3, 4],
        "purpose": "roll of the 5 tribe dice",
    }
    session.act({"type": "dice_rolled", "values": [1, 2, 3, 4, 6], "source": "confirmed"})
    assert device.pending is None and device.state == "waiting for a roll"


def test_a_second_look_replaces_the_roll_waiting_for_a_person(rig):
    device, session, _ = rig
    device.on_settled(Settled("unsure", (1, 2, None, 4, 5), 0.5, message="die 3 could not..."))
    assert rolls(session) == [] and device.state == "needs confirmation"
    device.on_settled(Settled("roll", (1, 2, 6, 4, 5), 0.91, revises=True))
    assert [r["values"] for r in rolls(session)] == [[1, 2, 6, 4, 5]]
    assert device.pending is None
    assert (device.state, device.message) == (
        "waiting for a roll",
        "(last roll read on a second look: 1 2 6 4 5 — Scavengers, Builders, Scientists, "
        "Matriarchy, Healers)",
    )


def test_a_second_look_after_a_person_confirmed_the_roll_is_dropped(rig):
    device, session, _ = rig
    device.on_settled(Settled("wrong_count", (1, 2, 3, 4), 0.9, message="4 of 5 dice seen"))
    session.act({"type": "dice_rolled", "values": [1, 2, 3, 4, 6], "source": "confirmed"})
    said = (device.state, device.message)
    device.on_settled(Settled("roll", (1, 2, 3, 4, 5), 0.9, revises=True))
    assert [r["values"] for r in rolls(session)] == [[1, 2, 3, 4, 6]]
    assert (device.state, device.message) == said and device.pending is None


def test_a_second_look_at_a_roll_that_never_waited_is_not_entered(rig):
    device, session, _ = rig  # the game waits for a roll, but none waits for a person
    device.on_settled(Settled("roll", (6, 6, 6, 6, 6), 0.9, revises=True))
    assert rolls(session) == [] and device.state == "waiting for a roll"


def test_a_roll_left_to_confirm_comes_with_the_cameras_picture_of_it(rig):
    # "die 3 could not be read": a person at the table could not tell which die was die 3
    device, session, _ = rig
    device.watcher.frame = np.full((960, 1280, 3), 90, np.uint8)  # bigger than pages need
    boxes = tuple((100 + 200 * i, 400, 180 + 200 * i, 480) for i in range(5))
    device.on_settled(Settled("unsure", (1, 2, None, 4, 5), 0.5, boxes, "die 3 could not..."))
    assert device.pending == {
        "game_id": session.game_id,
        "values": [1, 2, None, 4, 5],
        "purpose": "roll of the 5 tribe dice",
        "picture": 1,
    }
    picture = cv2.imdecode(np.frombuffer(device.picture, np.uint8), cv2.IMREAD_COLOR)
    assert picture.shape == (480, 640, 3)  # at most 640 px across: the boxes at half scale
    # each die boxed where it lies: die 1 in green (read), die 3 in orange (unsure)
    b, g, r = (int(c) for c in picture[220, 51])
    assert g > 150 and r < 100 and b < 100, (b, g, r)
    b, g, r = (int(c) for c in picture[220, 251])
    assert r > 200 and 90 < g < 190 and b < 80, (b, g, r)
    device.on_settled(Settled("wrong_count", (1, 2, 3, 4), 0.9, boxes[:4], "4 of 5 dice seen"))
    assert device.pending["picture"] == 2  # a roll of its own: the pages load it again
    session.act({"type": "dice_rolled", "values": [1, 2, 3, 4, 6], "source": "confirmed"})
    assert device.pending is None and device.picture is None


def test_the_camera_view_shows_the_latest_frame_with_the_dice_read_in_it(rig):
    # Aiming the camera meant stopping the service to take a still with rpicam-still.
    from companion.vision.reader import DieReading

    device, _, _ = rig
    assert device.view() is None  # no frame yet
    device.watcher.frame = np.full((480, 640, 3), 90, np.uint8)
    device.watcher.dice = [
        DieReading((100, 100, 130, 128), 4, 0.93, "4"),
        DieReading((300, 200, 340, 240), None, 0.41, "unsure"),
        DieReading((500, 300, 550, 345), 2, 0.97, "2"),
    ]
    jpeg, figures = device.view()
    assert figures == {"width": 640, "height": 480, "dice": 3, "die_px": 40}  # the median
    picture = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert picture.shape == (480, 640, 3)
    b, g, r = (int(c) for c in picture[115, 100])  # the first die's box, green: read
    assert g > 150 and r < 100 and b < 100, (b, g, r)
    device.watcher.dice = []  # the dice moving: the picture alone
    assert device.view()[1] == {"width": 640, "height": 480, "dice": 0, "die_px": None}


def test_a_roll_the_game_refuses_is_kept_for_confirmation(rig):
    device, session, _ = rig
    device.on_settled(Settled("roll", (1, 2, 3, 4, 7), 0.99))  # 7 is no face of these dice
    assert rolls(session) == []
    assert device.state == "needs confirmation"
    assert "the camera read 1 2 3 4 7 — Scavengers, Builders, Scholars, Matriarchy, 7: " in (
        device.message
    )


def test_a_roll_while_players_mark_is_ignored_unless_a_reroll_is_allowed(rig):
    device, session, _ = rig
    device.on_settled(Settled("roll", (1, 2, 3, 4, 5), 0.95))
    device.on_settled(Settled("roll", (6, 6, 6, 1, 2), 0.95))  # no value 3+ times: no reroll
    assert len(rolls(session)) == 1
    assert "not waiting for a roll" in device.message
    session.undo()
    device.on_settled(Settled("roll", (2, 2, 2, 1, 3), 0.95))  # three Builders: reroll allowed
    device.on_settled(Settled("roll", (5, 6, 1, 2, 3), 0.95))
    # the log keeps the undone roll; after it, the new roll and then the reroll
    assert [r["type"] for r in rolls(session)] == ["dice_rolled", "dice_rolled", "reroll"]
    assert sorted(session.state.roll) == [1, 2, 3, 5, 6]
    assert rolls(session)[-1]["source"] == "camera"


def test_a_roll_seen_while_the_game_is_not_waiting_for_one_is_only_said(rig):
    # players are marking their islands; dice are moved aside, or the device has just started
    # with the last roll still lying there
    device, session, _ = rig
    device.on_settled(Settled("roll", (1, 2, 3, 4, 5), 0.93))
    device.on_settled(Settled("roll", (6, 6, 6, 6, 6), 0.93))
    assert [r["values"] for r in rolls(session)] == [[1, 2, 3, 4, 5]]
    assert (device.state, device.message) == (
        "waiting for a roll",
        "dice seen at rest, but the game is not waiting for a roll",
    )


def test_the_empty_table_at_rest_is_no_roll_and_nothing_is_said_of_it(rig):
    # a demo camera starts on the empty table: "dice seen at rest" was said of no dice
    device, session, _ = rig
    device.on_settled(Settled("roll", (1, 2, 3, 4, 5), 0.93))
    said = (device.state, device.message)
    device.on_settled(Settled("roll", (), 1.0))
    assert (device.state, device.message) == said and len(rolls(session)) == 1


def test_a_roll_after_the_game_is_over_says_to_start_a_new_one(rig):
    device, session, _ = rig
    session.act({"type": "finish"})
    device.on_settled(Settled("roll", (1, 2, 3, 4, 5), 0.93))
    assert rolls(session) == []
    assert (
        device.message == "dice seen at rest, but the game is over: start a new game in the lobby"
    )


def test_what_was_said_of_the_last_game_is_not_said_of_the_next(rig):
    device, session, seen = rig
    session.act({"type": "finish"})
    device.on_settled(Settled("roll", (1, 2, 3, 4, 5), 0.93))
    assert "the game is over" in device.message
    device.hub.create(
        "first-island", 2, {"s_card": 4}
    )  # Play again: its table page said the old news
    assert (device.state, device.message) == ("waiting for a roll", "")
    assert seen[-1]["message"] == ""
    device.on_settled(Settled("roll", (1, 2, 3, 4, 5), 0.93))
    assert device.message.startswith("(last roll read: 1 2 3 4 5 — Scavengers,")
    said = device.message
    device.hub.set_active(device.hub.active_game())  # the same game: nothing to take back
    assert device.message == said


def test_taught_face_names_become_the_games_faces(rig):
    device, session, _ = rig
    device.on_settled(
        Settled("roll", ("Scavengers", "builders", "scholars", "matriarchy", "healers"), 0.9)
    )
    assert rolls(session)[0]["values"] == [1, 2, 3, 4, 5]


def test_dice_moved_while_a_reroll_is_allowed_but_showing_the_roll_are_no_reroll(rig):
    # A nudge, or dice gathered up, while players mark: the camera sees a new rest of the
    # same faces. Taken as the reroll it would use up the turn's only reroll unseen; a real
    # reroll of three dice shows their face again once in 216.
    device, session, _ = rig
    device.on_settled(Settled("roll", (2, 2, 2, 1, 3), 0.95))  # three Builders: reroll allowed
    device.on_settled(Settled("roll", (1, 2, 3, 2, 2), 0.95))  # the same dice, moved
    assert [r["type"] for r in rolls(session)] == ["dice_rolled"]
    assert session.game.player_view(session.state, None)["reroll_allowed"]
    assert device.state == "waiting for a roll"
    assert device.message == (
        "dice seen at rest showing the roll's faces again: not taken as a reroll "
        "(a reroll that came up the same is entered by hand)"
    )
    device.on_settled(Settled("roll", (1, 4, 3, 6, 2), 0.95))  # the Builders rerolled
    assert [r["type"] for r in rolls(session)] == ["dice_rolled", "reroll"]


def test_a_reroll_read_from_taught_dice_is_entered_and_named_as_the_game_names_it(rig):
    # The First Island's reroll is of the same tribe dice: taught faces read by name were
    # not turned into the game's faces there (no roll is asked for while players mark), so
    # a reroll read from taught dice was refused and left to confirm
    device, session, _ = rig
    device.on_settled(Settled("roll", (2, 2, 2, 1, 3), 0.95))  # three Builders: reroll allowed
    device.on_settled(
        Settled("roll", ("scientists", "healers", "Scavengers", "builders", "scholars"), 0.9)
    )
    assert rolls(session)[-1]["type"] == "reroll"
    assert rolls(session)[-1]["values"] == [6, 5, 1, 2, 3]
    said = "(last roll read: 6 5 1 2 3 — Scientists, Healers, Scavengers, Builders, Scholars)"
    assert device.state == "waiting for a roll" and device.message == said


def test_a_numbered_die_taught_as_1_to_6_gives_the_games_faces(rig):
    # a die taught with its faces named 1 to 6 was read as the text "6", which no game takes
    device, session, _ = rig
    device.on_settled(Settled("roll", ("6", "2", "2", "5", "1"), 0.9))
    assert rolls(session)[0]["values"] == [6, 2, 2, 5, 1]


def test_without_a_camera_the_pages_are_told_to_enter_rolls_by_hand(tmp_path):
    hub = Hub(EventStore(tmp_path / "g.db"))
    assert hub.device_json()["state"] == "no camera"
    device = hub.attach(Device(hub))
    assert device.to_json() == {
        "state": "no camera",
        "message": "enter rolls by hand",
        "pending": None,
    }


def test_a_die_taught_with_an_earlier_model_stops_the_camera_not_the_games(tmp_path):
    # A new version of the dice model makes a taught die unreadable until it is taught again:
    # the service goes on (phones, scores, rolls by hand) and says what to do.
    import numpy as np

    from companion.device.serve import start_device
    from companion.vision.custom import CustomDice

    hub = Hub(EventStore(tmp_path / "g.db"))
    session = hub.create("first-island", 2, {"variant": "easy", "s_card": 4})
    old = CustomDice("old", {"fish": np.eye(64)[0]}, model="0123456789abcdef/grey")
    device = start_device(hub, "replay:/nowhere@5", tmp_path / "g.db", custom=old)
    assert device.watcher is None and device.state == "dice not read"
    assert "companion teach old" in device.message
    assert device.message.endswith("`companion teach old`. Enter rolls by hand meanwhile.")
    assert hub.device_json()["state"] == "dice not read"
    session.act({"type": "dice_rolled", "values": [1, 2, 3, 4, 5], "source": "manual"})
    assert rolls(session)[0]["values"] == [1, 2, 3, 4, 5]


def test_a_camera_the_config_cannot_name_stops_the_camera_not_the_games(tmp_path):
    # A misspelt [camera] source can never open: the service says what to fix, at once and
    # without retrying it, and the games go on with rolls entered by hand.
    from companion.device.serve import start_device

    hub = Hub(EventStore(tmp_path / "g.db"))
    session = hub.create("first-island", 2, {"variant": "easy", "s_card": 4})
    device = start_device(hub, "video0", tmp_path / "g.db")
    assert device.watcher is None and device.state == "dice not read"
    assert "unknown camera 'video0'" in device.message
    assert "usb:N" in device.message and "[camera] source" in device.message
    assert device.message.endswith("Enter rolls by hand meanwhile.")
    session.act({"type": "dice_rolled", "values": [6, 5, 4, 3, 2], "source": "manual"})
    assert rolls(session)[0]["values"] == [6, 5, 4, 3, 2]


def test_a_camera_view_the_reader_does_not_know_stops_the_camera_not_the_games(tmp_path):
    # A misspelt [camera] view: the service says what to set, and rolls are entered by hand.
    from companion.device.serve import start_device

    hub = Hub(EventStore(tmp_path / "g.db"))
    session = hub.create("first-island", 2, {"variant": "easy", "s_card": 4})
    device = start_device(hub, "replay:/nowhere@5", tmp_path / "g.db", view="overhead")
    assert device.watcher is None and device.state == "dice not read"
    assert "unknown view 'overhead'" in device.message and "'down'" in device.message
    session.act({"type": "dice_rolled", "values": [1, 1, 2, 3, 5], "source": "manual"})
    assert rolls(session)[0]["values"] == [1, 1, 2, 3, 5]


def test_a_roll_the_full_disk_cannot_save_waits_and_lights_the_error_led(rig):
    from companion.errors import StorageError

    device, session, seen = rig
    hub = device.hub
    other = hub.create("first-island", 2, {"variant": "easy", "s_card": 4})  # fills the disk below
    conn = session.store._conn()
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full from here
    roll = {"type": "dice_rolled", "values": [6, 6, 6, 6, 6], "source": "manual"}
    try:
        with pytest.raises(StorageError):
            for _ in range(2000):  # the other game's rolls fill the pages the limit allows
                other.act(roll)
                other.undo()
        hub.set_active(session.game_id)  # the game at the table, not the one that filled it
        before = len(session.entries)
        device.on_settled(Settled("roll", (1, 2, 3, 4, 5), 0.95))
        assert device.state == "storage problem" and "Free some space" in device.message
        assert device.pending == {
            "game_id": session.game_id,
            "values": [1, 2, 3, 4, 5],
            "purpose": "roll of the 5 tribe dice",
        }
        assert len(session.entries) == before and seen[-1]["state"] == "storage problem"
    finally:
        conn.execute("PRAGMA max_page_count = 1073741823")
    session.act({"type": "dice_rolled", "values": [1, 2, 3, 4, 5], "source": "confirmed"})
    assert device.pending is None and device.state == "waiting for a roll"


def test_the_button_does_not_wipe_out_why_dice_are_not_read(tmp_path):
    hub = Hub(EventStore(tmp_path / "g.db"))
    session = hub.create("first-island", 2, {"variant": "easy", "s_card": 4})
    device = hub.attach(Device(hub, problem="teach it again with `companion teach old`"))
    device.press()
    assert device.state == "dice not read"
    assert device.message.startswith("teach it again with `companion teach old`. Enter rolls")
    assert "meanwhile. (button: " in device.message  # what the press did, after the fault
    session.act({"type": "dice_rolled", "values": [1, 2, 3, 4, 5], "source": "manual"})
    device.hold()
    assert (
        "companion teach old" in device.message
        and "(button: undid the last action)" in device.message
    )


def test_in_serves_terminal_only_enter_and_u_act(rig):
    # Off the Pi the terminal is the button: any line used to press it, so a "q" typed to
    # quit advanced the round.
    from companion.device.serve import terminal_line

    device, session, _ = rig
    session.act({"type": "dice_rolled", "values": [1, 2, 3, 4, 5], "source": "manual"})
    before = (device.message, session.seq)
    said = terminal_line(device, "q\n")
    assert said.startswith("  'q' does nothing: Enter alone advances the round, u and")
    assert (device.message, session.seq) == before
    assert terminal_line(device, " U \n") == ""
    assert device.message == "button: undid the last action" and session.seq == 2
    assert terminal_line(device, "\n") == ""
    assert device.message.startswith("button: ")  # a press, refused or not, says what it did
    assert device.message != "button: undid the last action"


def test_a_roll_is_said_with_the_games_names_for_its_faces_where_it_has_any():
    tribes = DiceSpec(count=2, faces={1: "scavengers", 6: "scientists"})
    assert _roll_text(tribes, (1, 6)) == "1 6 — Scavengers, Scientists"
    numbered = DiceSpec(count=2, faces={v: str(v) for v in range(1, 7)})
    assert _roll_text(numbered, (1, 6)) == "1 6"  # nothing more to say
    assert _roll_text(None, (3, 4)) == "3 4"  # no spec to name the faces by


def test_the_device_reads_on_the_threads_its_config_gives(tmp_path):
    from companion.device.serve import start_device

    hub = Hub(EventStore(tmp_path / "g.db"))
    device = start_device(hub, "replay:/nowhere@5", tmp_path / "g.db", threads=3)
    try:
        reader = device.watcher.reader
        assert reader._faces.get_session_options().intra_op_num_threads == 3
        assert reader._detector.get_session_options().intra_op_num_threads == 3
    finally:
        device.stop()


def test_the_demo_rolls_when_a_roll_is_wanted_and_gives_time_to_score_a_card(tmp_path):
    # The demo's next roll came about 3 s after the last mark: no time to score a camp card.
    from companion.device.serve import DEMO_PAUSE, demo_wants_roll

    hub = Hub(EventStore(tmp_path / "g.db"))
    session = hub.create("first-island", 1, {"difficulty": "casual"})
    now = [0.0]
    wants = demo_wants_roll(hub, clock=lambda: now[0])
    assert wants()  # round 1 waits on the dice alone
    session.act({"type": "dice_rolled", "values": [3, 3, 3, 1, 2]})
    assert not wants()  # a reroll is allowed: the demo's roller keeps the roll
    for hex_, picks in (((0, 0), (1, 2)), ((1, 0), (3, 4))):
        session.act({"type": "mark", "seat": 0, "hex": hex_, "picks": picks, "axis": 0})
    now[0] = session.entries[-1].created + 3
    assert session.dice() is not None and not wants()  # marked: the round button's time
    now[0] += DEMO_PAUSE
    assert wants()
    session.act(session.game.button(session.state).action)  # the button pressed: roll now
    assert wants()

"""`companion doctor`: each check's verdict and advice."""

from __future__ import annotations

import importlib.util
import socket
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import doctor, doctor_camera
from companion.vision.camera import CameraError, explain


class Fake:
    name = "fake"

    def read(self):
        return np.zeros((480, 640, 3), np.uint8)

    def close(self):
        pass


def opener_failing(message):
    def open_(spec):
        raise explain(OSError(message), "the camera")

    return open_


def test_a_busy_camera_is_recognised_with_what_to_do():
    for message in (
        "Pipeline handler in use by another process",
        "[Errno 16] Device or resource busy",
    ):
        c = doctor_camera.check_camera("usb:0", opener_failing(message))
        assert c.level == "FAIL" and "busy" in c.detail and "systemctl stop companion" in c.fix


def test_a_missing_camera_says_what_to_check_for_its_kind(tmp_path):
    c = doctor_camera.check_camera("pi", opener_failing("no camera found"))
    assert c.level == "FAIL" and "ribbon cable" in c.fix
    nowhere = tmp_path / "no-webcams"  # what this machine has plugged in is not asked
    c = doctor_camera.check_camera("usb:0", opener_failing("no camera found"), by_id=nowhere)
    assert c.level == "FAIL" and "plug the webcam in" in c.fix and "ribbon" not in c.fix
    link = "/dev/v4l/by-id/usb-Acme-video-index0"  # the webcam named by its link
    c = doctor_camera.check_camera(link, by_id=nowhere)
    assert c.level == "FAIL" and "no camera at /dev/v4l/by-id/usb-Acme" in c.detail
    assert "plug the webcam in" in c.fix and "ls /dev/v4l/by-id" in c.fix
    by_id = tmp_path / "by-id"  # a webcam plugged in: its picture's link, and its metadata's
    by_id.mkdir()
    for name in ("usb-Acme_Cam_12-video-index0", "usb-Acme_Cam_12-video-index1"):
        (by_id / name).symlink_to("../../video4")
    c = doctor_camera.check_camera("usb:0", opener_failing("no camera found"), by_id=by_id)
    assert c.fix == (
        f"webcams plugged in now: {by_id / 'usb-Acme_Cam_12-video-index0'}; set [camera] "
        "source to one of them (or pass --camera)"
    )
    c = doctor_camera.check_camera("pi", opener_failing("no camera found"), by_id=by_id)
    assert c.fix.startswith("check the ribbon cable") and c.fix.endswith(
        f"; or, to use a webcam plugged in instead, set [camera] source to "
        f"{by_id / 'usb-Acme_Cam_12-video-index0'}"
    )
    c = doctor_camera.check_camera("replay:/nowhere")  # a folder of frames has no cable
    assert c.level == "FAIL" and "no folder or video at /nowhere" in c.detail
    assert c.fix == "check the path in [camera] source (or --camera)"


def test_a_camera_that_gives_no_frame_says_what_stalls_one():
    class Stalled(Fake):
        def read(self):
            raise CameraError("the Pi camera gave no frame for 5 s", code="camera/stalled")

    c = doctor_camera.check_camera("usb:0", lambda spec: Stalled())  # "pi" needs picamera2 first
    assert c.level == "FAIL" and "no frame" in c.detail and "reseat the ribbon" in c.fix


def test_a_working_camera_reports_its_frame_size():
    c = doctor_camera.check_camera("usb:0", lambda spec: Fake())
    assert (c.level, c.detail) == ("ok", "usb:0 gives 640x480 frames")


@pytest.mark.skipif(importlib.util.find_spec("picamera2") is not None, reason="on a Pi")
def test_the_pi_camera_needs_picamera2_from_apt():
    c = doctor_camera.check_camera("pi")
    assert c.level == "FAIL" and "python3-picamera2" in c.fix  # no picamera2 off the Pi


TABLE = Path(__file__).parents[1] / "data" / "dice" / "matteop65-valid_valid_10.jpg"


def test_the_light_on_the_table_is_checked_from_the_camera_frame():
    table = cv2.imread(str(TABLE))  # two dice on a wooden desk in daylight
    assert doctor_camera.check_light(table).level == "ok"
    grey = cv2.cvtColor(table, cv2.COLOR_BGR2GRAY)
    c = doctor_camera.check_light(grey)
    assert c.level == "warn" and "grey" in c.detail and "colour camera" in c.fix
    dim = (table * 0.3).astype(np.uint8)
    c = doctor_camera.check_light(dim)
    assert c.level == "warn" and "dim" in c.detail and "white lamp" in c.fix
    warm = np.clip(table * np.float32([0.55, 0.85, 1.1]), 0, 255).astype(np.uint8)
    c = doctor_camera.check_light(warm)
    assert c.level == "warn" and "colour cast" in c.detail


def test_the_dice_in_view_are_counted_and_their_size_checked():
    table = cv2.imread(str(TABLE))  # two dice about 70 pixels wide
    c = doctor_camera.check_dice(table, "slanted")
    assert c.level == "ok" and c.detail.startswith("2 seen, about ") and "640x480" in c.detail
    # the same dice a camera three times higher sees: a fifth of the size, many to a frame
    far = cv2.resize(table, None, fx=0.2, fy=0.2, interpolation=cv2.INTER_AREA)
    far = np.tile(far, (6, 6, 1))[:480, :640]
    c = doctor_camera.check_dice(far, "slanted")
    assert c.level == "warn" and "too small" in c.detail and "closer" in c.fix
    empty = np.full((480, 640, 3), 128, np.uint8)
    c = doctor_camera.check_dice(empty, "down")
    assert c.level == "ok" and c.detail.startswith("none in view; put a few under the camera")


def test_the_pis_power_flags_are_read_and_off_a_pi_there_is_no_power_check(monkeypatch):
    def said(text):
        return lambda: text

    c = doctor.check_power(said("throttled=0x0\n"))
    assert (c.name, c.level) == ("power", "ok")
    c = doctor.check_power(said("throttled=0x50005\n"))  # too little power now, and slowed
    assert c.level == "warn" and "too little power (under-voltage) now" in c.detail
    assert "official supply" in c.fix and "Zero 2 W" in c.fix
    c = doctor.check_power(said("throttled=0x50000\n"))  # at some time since boot only
    assert (
        c.level == "warn"
        and "has had too little power" in c.detail
        and "since it booted" in c.detail
    )
    c = doctor.check_power(said("throttled=0x80008\n"))
    assert c.level == "warn" and "too hot" in c.detail and "heatsink" in c.fix
    c = doctor.check_power(said("throttled=0x20000\n"))  # the clock capped once: not a fault
    assert c.level == "ok"
    c = doctor.check_power(said("VCHI initialization failed\n"))  # not in the video group
    assert c.level == "warn" and "video group" in c.fix
    monkeypatch.setattr(doctor.shutil, "which", lambda name: None)
    assert doctor.check_power() is None  # not a Pi


def camera_over_the_table(monkeypatch, tmp_path):
    """A config whose camera gives the golden table frame (two dice), its data in tmp_path."""
    from dataclasses import replace

    from companion.device.config import Config

    frame = cv2.imread(str(TABLE))

    class Table(Fake):
        def read(self):
            return frame

    monkeypatch.setattr("companion.vision.camera.open_camera", lambda spec: Table())
    cfg = Config()
    return replace(cfg, storage=replace(cfg.storage, data_dir=str(tmp_path / "data")))


def test_the_light_is_checked_only_when_the_camera_gives_a_frame(monkeypatch, tmp_path):
    cfg = camera_over_the_table(monkeypatch, tmp_path)
    names = [c.name for c in doctor.run(cfg, camera="usb:0")]
    assert names[:4] == ["camera", "view", "light", "dice"]
    without = [c.name for c in doctor.run(cfg, camera="none")]
    assert not {"light", "view", "dice"} & set(without)


@pytest.mark.parametrize("broken", ["models", "view"])
def test_dice_models_that_do_not_load_are_reported_not_raised(monkeypatch, tmp_path, broken):
    # doctor counted the dice in view with a reader of its own, before the models check: with
    # the models gone (or a view the reader does not know) it stopped with a traceback, and
    # the checks that say what is wrong were never printed.
    from dataclasses import replace

    from companion.vision import reader

    cfg = camera_over_the_table(monkeypatch, tmp_path)
    if broken == "models":
        monkeypatch.setattr("companion.vision.reader.model_dir", lambda: tmp_path / "gone")
    else:
        cfg = replace(cfg, camera=replace(cfg.camera, view="sideways"))
    made = []
    init = reader.DiceReader.__init__
    monkeypatch.setattr(
        reader.DiceReader, "__init__", lambda self, *a, **k: made.append(k) or init(self, *a, **k)
    )
    checks = {c.name: c for c in doctor.run(cfg, camera="usb:0")}
    assert len(made) == 1  # the models are loaded once, for the dice in view and the models
    if broken == "models":
        assert checks["models"].level == "FAIL" and "no dice models in" in checks["models"].detail
        dice = checks["dice"]
        assert dice.level == "warn" and "not counted: the dice models do not load" in dice.detail
    else:  # the view's own check fails; the dice are counted as a slanted camera sees them
        assert checks["view"].level == "FAIL" and checks["models"].level == "ok"
        assert checks["dice"].level == "ok" and checks["dice"].detail.startswith("2 seen")


def test_the_camera_view_is_said_and_an_unknown_one_fails():
    down = doctor_camera.check_view("down")
    assert down.level == "ok" and 'view = "slanted"' in down.fix  # how to change it
    assert doctor_camera.check_view("slanted").level == "ok"
    wrong = doctor_camera.check_view("overhead")
    assert wrong.level == "FAIL" and "'overhead'" in wrong.detail and 'view = "down"' in wrong.fix


def test_no_camera_is_a_warning_not_a_failure():
    assert doctor_camera.check_camera("none").level == "warn"


def test_a_port_in_use_is_reported():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        c = doctor.check_port("127.0.0.1", s.getsockname()[1])
    assert c.level == "warn" and "in use" in c.detail


def test_a_port_left_only_by_closed_connections_is_free():
    # A server (serve sets SO_REUSEADDR, as waitress does) closes first, so its side waits
    # out TIME_WAIT; serve binds through that, so doctor must not call the port in use.
    with socket.socket() as listener:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        client = socket.create_connection(("127.0.0.1", port))
        served, _ = listener.accept()
        served.close()
        client.close()
    c = doctor.check_port("127.0.0.1", port)
    assert (c.level, c.detail) == ("ok", f"127.0.0.1:{port} is free")


def test_the_network_says_where_phones_reach_the_device_or_why_they_cannot():
    # A Pi whose Wi-Fi was never set up served only to itself, and doctor passed it.
    def said(host, addresses):
        c = doctor.check_network(host, 8000, addresses)
        return c.level, c.detail, c.fix

    lan = ["127.0.0.1", "192.168.1.20"]
    assert said("0.0.0.0", lan) == ("ok", "phones open http://192.168.1.20:8000/", "")
    level, detail, fix = said("0.0.0.0", ["127.0.0.1"])
    assert (level, detail) == ("warn", "no network: phones cannot reach this machine")
    assert fix.startswith('join the table\'s Wi-Fi: sudo nmcli device wifi connect "NAME"')
    level, detail, _ = said("0.0.0.0", ["127.0.0.1", "169.254.7.1"])
    assert level == "warn" and detail.startswith("only a link-local address (169.254.7.1)")
    assert said("127.0.0.1", lan) == (
        "warn",
        "serving on 127.0.0.1 only: no phone can reach this machine",
        'set [web] host = "0.0.0.0" in the config',
    )


def test_an_unset_clock_fails():
    assert doctor.check_clock(0).level == "FAIL"  # 1970: a Pi that never reached NTP
    assert doctor.check_clock(1_800_000_000).level == "ok"


def test_data_dir_checks(tmp_path):
    ok = doctor.check_data(tmp_path / "data")
    assert [c.level for c in ok] == ["ok", "ok"]
    blocked = tmp_path / "file"
    blocked.write_text("")
    (bad,) = doctor.check_data(blocked / "data")
    assert bad.level == "FAIL" and "not writable" in bad.detail


def test_mock_pins_when_asked():
    c = doctor.check_pins(mock=True)
    assert c.level == "ok" and "mock pins" in c.detail


def test_camera_errors_are_camera_errors():
    assert isinstance(explain(OSError("x"), "cam"), CameraError)


def test_the_taught_die_in_the_config_is_checked_against_the_dice_model(tmp_path):
    from companion.vision.custom import CustomDice
    from companion.vision.reader import DiceReader

    data = tmp_path / "data"
    missing = doctor.check_taught_die("tribes", data)
    assert missing.level == "FAIL" and "no taught die called 'tribes'" in missing.detail
    assert missing.fix.startswith("companion teach tribes")
    (data / "dice").mkdir(parents=True)
    faces = {"fish": np.eye(64)[0], "wood": np.eye(64)[1]}
    CustomDice("tribes", faces, model="0123456789abcdef/grey").save(data / "dice/tribes.json")
    stale = doctor.check_taught_die("tribes", data)
    assert stale.level == "FAIL" and "another version of the dice model" in stale.detail
    CustomDice("tribes", faces, model=DiceReader().teach_id).save(data / "dice/tribes.json")
    assert doctor.check_taught_die("tribes", data).level == "ok"


def test_a_damaged_games_database_is_not_called_unwritable(tmp_path):
    (tmp_path / "games.db").write_bytes(b"x" * 5000)
    [c] = doctor.check_data(tmp_path)
    assert c.level == "FAIL" and "is not a games database SQLite can read" in c.detail
    assert c.fix.startswith(f"move it aside (mv {tmp_path / 'games.db'} ") and "chown" not in c.fix

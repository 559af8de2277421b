"""``companion doctor``: check everything the device needs, and say what to do about each fault.

Each check answers ok, warn or FAIL with a line of advice. The exit status is 1
when any check fails, so the install script and a person at a terminal can both
rely on it.
"""

from __future__ import annotations

import shutil
import socket
import sqlite3
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.device.config import Config
from companion.device.lan import lan_addresses, link_local, loopback
from companion.engine.store import not_a_database, set_aside

MIN_FREE_MB = 200


@dataclass(frozen=True)
class Check:
    name: str
    level: str  # "ok" | "warn" | "FAIL"
    detail: str
    fix: str = ""

    def line(self) -> str:
        return f"{self.level:<4} {self.name}: {self.detail}" + (
            f"\n       -> {self.fix}" if self.fix else ""
        )


def dice_reader(view: str):
    """The dice reader doctor's checks share (the models loaded once), or the error that
    kept it from loading: the models check reports it, and the dice check names it."""
    from companion.errors import CompanionError
    from companion.vision.reader import DiceReader

    try:
        return DiceReader(view=view)
    except (CompanionError, ImportError, OSError) as exc:
        return exc


# The bits of the Pi firmware's throttled flags (`vcgencmd get_throttled`): now, and (16 up)
# at some time since boot.
UNDER_VOLTAGE, THROTTLED, HOT = 0x1, 0x4, 0x8
SINCE_BOOT = 16


def check_power(vcgencmd: Callable[[], str] | None = None) -> Check | None:
    """Whether the Pi has had too little power (or got too hot) since it booted, from its
    firmware's flags; None off a Pi (no vcgencmd). Under-voltage stalls the camera and
    corrupts SD cards, and is the commonest fault of a Pi on a weak phone charger."""
    import re
    import subprocess

    if vcgencmd is None:
        path = shutil.which("vcgencmd")
        if path is None:
            return None

        def vcgencmd() -> str:
            run = subprocess.run(
                [path, "get_throttled"], capture_output=True, text=True, timeout=5, check=False
            )
            return run.stdout if run.returncode == 0 else ""

    try:
        said = vcgencmd()
    except (OSError, subprocess.SubprocessError) as exc:
        said = str(exc)
    found = re.search(r"throttled=(0x[0-9a-fA-F]+)", said)
    if found is None:
        return Check(
            "power",
            "warn",
            f"cannot read the Pi's power flags (vcgencmd get_throttled said {said.strip()!r})",
            "run doctor as a user in the video group (the service's user is)",
        )
    flags = int(found.group(1), 16)
    supply = (
        "use the Pi's official supply (USB-C 5 V 5 A for a Pi 5, 5 V 3 A for a Pi 4, "
        "micro-USB 5 V 2.5 A for a Zero 2 W) and its own cable, not a phone charger"
    )
    for bit, what, fix in (
        (UNDER_VOLTAGE, "too little power (under-voltage)", supply),
        (HOT, "too hot (soft temperature limit)", "give the Pi a heatsink or a fan, and air"),
        (THROTTLED, "slowed down (throttled)", f"{supply}; give the Pi a heatsink"),
    ):
        if flags & bit:
            return Check("power", "warn", f"the Pi has {what} now (flags {flags:#x})", fix)
        if flags & (bit << SINCE_BOOT):
            return Check(
                "power", "warn", f"the Pi has had {what} since it booted (flags {flags:#x})", fix
            )
    return Check("power", "ok", "no under-voltage or throttling since boot")


def check_pins(mock: bool) -> Check:
    from companion.device.panel import pin_factory

    factory = pin_factory(mock)
    name = type(factory).__name__
    if name == "MockFactory":
        level = "ok" if mock else "warn"
        return Check(
            "pins",
            level,
            "gpiozero's mock pins (no button or LEDs wired)",
            ""
            if mock
            else "on a Pi: sudo apt install python3-lgpio, and run as a user in the gpio group",
        )
    if name == "RPiGPIOFactory":
        return Check(
            "pins",
            "warn",
            "RPi.GPIO pin factory: it misses button edges on Pi 5",
            "sudo apt install python3-lgpio so gpiozero picks lgpio",
        )
    return Check("pins", "ok", f"gpiozero pin factory {name}")


def check_models(reader=None) -> Check:
    """The dice models load and read a frame. ``reader``: from ``dice_reader`` (by default
    one of its own, in the slanted view)."""
    import numpy as np

    from companion.errors import CompanionError

    reader = dice_reader("slanted") if reader is None else reader
    if not isinstance(reader, Exception):
        try:
            t0 = time.perf_counter()
            reader.read(np.full((480, 640, 3), 128, np.uint8))
            ms = (time.perf_counter() - t0) * 1000
            return Check("models", "ok", f"dice models load and read a blank frame in {ms:.0f} ms")
        except (CompanionError, ImportError, OSError) as exc:
            reader = exc
    return Check(
        "models",
        "FAIL",
        f"the dice models do not load: {reader}",
        "reinstall the package (pip install --force-reinstall table-companion)",
    )


def check_taught_die(name: str, data_dir: Path) -> Check:
    """The die named by ``[vision] die``: there, and taught with the installed dice model."""
    from companion.errors import CompanionError
    from companion.vision.reader import DiceReader
    from companion.vision.taught import TaughtSet
    from companion.vision.teach import load_die

    teach = f"companion teach {name} (then restart: sudo systemctl restart companion)"
    try:
        die = load_die(data_dir, name)
        DiceReader(custom=die)
    except CompanionError as exc:  # load_die and DiceReader say what is wrong as VisionError
        return Check("taught die", "FAIL", str(exc), teach)
    if isinstance(die, TaughtSet):
        return Check("taught die", "ok", f"{name!r}: a taught set of pip dice, for these models")
    return Check("taught die", "ok", f"{name!r}: {len(die.faces)} faces, for this dice model")


def check_data(data_dir: Path) -> list[Check]:
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=data_dir):
            pass
        con = sqlite3.connect(data_dir / "games.db")
        con.execute("PRAGMA quick_check").fetchone()
        con.close()
    except (OSError, sqlite3.Error) as exc:
        if not_a_database(exc):
            database = data_dir / "games.db"
            return [
                Check(
                    "data",
                    "FAIL",
                    f"{database} is not a games database SQLite can read ({exc})",
                    set_aside(database),
                )
            ]
        return [
            Check(
                "data",
                "FAIL",
                f"{data_dir} is not writable: {exc}",
                f"sudo chown -R companion: {data_dir} (or set [storage] data_dir)",
            )
        ]
    free = shutil.disk_usage(data_dir).free // 2**20
    disk = (
        Check("disk", "ok", f"{free} MB free")
        if free >= MIN_FREE_MB
        else Check(
            "disk",
            "FAIL",
            f"only {free} MB free on {data_dir}",
            "free some space (old logs: sudo journalctl --vacuum-size=50M)",
        )
    )
    return [Check("data", "ok", f"{data_dir} is writable and games.db opens"), disk]


def check_port(host: str, port: int) -> Check:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        # as serve binds: connections the last run closed (TIME_WAIT) do not hold the port
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as exc:
            return Check(
                "port",
                "warn",
                f"{host}:{port} is in use ({exc.strerror})",
                "fine if the companion service is running (systemctl status companion); "
                "otherwise set [web] port",
            )
    return Check("port", "ok", f"{host}:{port} is free")


JOIN_WIFI = (
    'join the table\'s Wi-Fi: sudo nmcli device wifi connect "NAME" password "PASSWORD" '
    "(or sudo nmtui)"
)


def check_network(host: str, port: int, addresses: list[str] | None = None) -> Check:
    """Whether phones can reach the scoreboard, and at which address."""
    if loopback(host) or host == "localhost":
        return Check(
            "network",
            "warn",
            f"serving on {host} only: no phone can reach this machine",
            'set [web] host = "0.0.0.0" in the config',
        )
    ips = lan_addresses() if addresses is None else addresses
    lan = [ip for ip in ips if not loopback(ip)]
    if not lan:
        return Check("network", "warn", "no network: phones cannot reach this machine", JOIN_WIFI)
    if all(link_local(ip) for ip in lan):
        return Check(
            "network",
            "warn",
            f"only a link-local address ({lan[0]}): no DHCP server answered, so phones on the "
            "Wi-Fi cannot reach it",
            f"check the network cable's router, or {JOIN_WIFI}",
        )
    shown = lan[0] if host in ("0.0.0.0", "", "::") else host
    return Check("network", "ok", f"phones open http://{shown}:{port}/")


def check_clock(now: float | None = None) -> Check:
    year = time.gmtime(now if now is not None else time.time()).tm_year
    if year < 2025:
        return Check(
            "clock",
            "FAIL",
            f"the clock says {year}",
            "connect the Pi to a network once so it sets its clock (timedatectl)",
        )
    return Check("clock", "ok", time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(now)))


def run(cfg: Config, camera: str | None = None) -> list[Check]:
    from companion.cli.doctor_camera import (
        check_camera,
        check_dice,
        check_light,
        check_view,
        dice_reader,
    )
    from companion.vision.pictures import VIEWS

    data_dir = Path(cfg.storage.data_dir).expanduser()
    frames: list = []
    spec = camera or cfg.camera.source
    camera_check = check_camera(spec, frames=frames)
    # loaded once, for the dice in view and the models; an unknown view fails its own check
    reader = dice_reader(cfg.camera.view if cfg.camera.view in VIEWS else "slanted")
    return [
        camera_check,
        *([check_view(cfg.camera.view)] if spec != "none" else []),
        *(check_light(frame) for frame in frames),
        *(check_dice(frame, cfg.camera.view, reader) for frame in frames),
        *([power] if (power := check_power()) is not None else []),
        check_pins(cfg.gpio.mock),
        check_models(reader),
        *([check_taught_die(cfg.vision.die, data_dir)] if cfg.vision.die else []),
        *check_data(data_dir),
        check_port(cfg.web.host, cfg.web.port),
        check_network(cfg.web.host, cfg.web.port),
        check_clock(),
    ]

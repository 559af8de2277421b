"""A real `companion serve` process and Debian's Chromium driven by Playwright."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
ARTIFACTS = Path(__file__).parents[2] / "artifacts" / "screenshots"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def tap_roll(page, picker, values):
    """Enter ``values`` in the roll picker ``picker``: each die's face tapped in its row."""
    for i, v in enumerate(values, start=1):
        page.click(f'{picker} [data-die="{i}"][data-face="{v}"]')


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, proc: subprocess.Popen, url: str, pin: str, game_id: str):
        self.proc, self.url, self.pin, self.game_id = proc, url, pin, game_id

    def table(self, game_id: str | None = None) -> str:
        """The table page of ``game_id`` (the demo's game), as the host opens it: the link
        carries the host PIN, which the page keeps."""
        return f"{self.url}/table/{game_id or self.game_id}?pin={self.pin}"


@pytest.fixture
def server(tmp_path):
    """`companion serve --demo --camera none` (rolls entered by hand) on a free port."""
    yield from _serve(tmp_path, ["--camera", "none"])


@pytest.fixture
def demo_server(tmp_path):
    """`companion serve --demo` exactly as `make run` starts it: the replayed camera reads."""
    yield from _serve(tmp_path, [])


@pytest.fixture
def unsure_server(tmp_path):
    """The demo, with a reader so strict that it is unsure of every die the camera sees."""
    yield from _serve(tmp_path, [], config="[vision]\nmin_confidence = 0.999999\n")


@pytest.fixture
def island_server(tmp_path):
    """`companion serve --demo my-island`: the demo's camera draws each roll of commerce dice
    the game asks for, and reads it with the die taught from rendered shows."""
    yield from _serve(tmp_path, [], game="my-island")


@pytest.fixture
def war_server(tmp_path):
    """`companion serve --demo first-war`: the demo's camera draws the population die when
    the game asks for it."""
    yield from _serve(tmp_path, [], game="first-war")


def _serve(tmp_path, extra, config="", game=None):
    port = _free_port()
    env = {**os.environ, "COMPANION_CONFIG": str(tmp_path / "none.toml")}
    (tmp_path / "none.toml").write_text(config)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion",
            "serve",
            "--demo",
            *([game] if game else []),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--data-dir",
            str(tmp_path / "data"),
            "--no-mdns",
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    lines, pin, game_id = [], None, None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and (pin is None or game_id is None):
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if m := re.search(r"host PIN: (\d+)", line):
            pin = m.group(1)
        if m := re.search(r"/table/([A-Z0-9]{5})", line):
            game_id = m.group(1)
    if pin is None or game_id is None:
        proc.kill()
        pytest.fail("companion serve did not start:\n" + "".join(lines))
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(url + "/api/games", timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    yield Server(proc, url, pin, game_id)
    proc.terminate()
    proc.wait(timeout=10)
    proc.stdout.close()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium package")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def shot():
    """Save a screenshot as a test artifact: shot(page, "name")."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> Path:
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take

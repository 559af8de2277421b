"""Small builders shared by tests (not fixtures: plain functions)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import cv2
import numpy as np

from companion.engine.game import DiceRolled
from companion.games.first_island.model import Cell


def large(q, r, tribe):
    return Cell((q, r), (tribe,))


def split(q, r, axis, a, b):
    return Cell((q, r), (a, b), axis)


def cells(*items):
    return {c.hex: c for c in items}


def roll(*values):
    return DiceRolled(tuple(values), source="test")


def get_when_up(url: str, server: subprocess.Popen, seconds: float = 60.0) -> str:
    """The body of ``url`` once ``server`` (a process just started) answers it; fails if the
    process exits first or never answers."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                return r.read().decode()
        except OSError:
            if server.poll() is not None:
                raise AssertionError(f"the server exited (code {server.returncode})") from None
            time.sleep(0.2)
    raise AssertionError(f"nothing answered {url} in {seconds:.0f} s")


@contextmanager
def serving(tmp_path: Path, settings: str = "") -> Iterator[tuple[int, subprocess.Popen]]:
    """``companion serve`` started as the service runs it, on a free port, its games under
    ``tmp_path / "data"`` and ``settings`` (TOML) added to its config: (port, process), its
    output one text stream. Killed at the end if still running."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    (tmp_path / "c.toml").write_text(f'[storage]\ndata_dir = "{tmp_path / "data"}"\n{settings}')
    env = {**os.environ, "COMPANION_CONFIG": str(tmp_path / "c.toml")}
    cmd = [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--no-mdns"]
    server = subprocess.Popen(
        [*cmd, "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert get_when_up(f"http://127.0.0.1:{port}/api/games", server).startswith("[")
        yield port, server
    finally:
        server.kill()
        server.communicate(timeout=30)


def straight_down(img: np.ndarray, side: str) -> np.ndarray:
    """A slanted photo (its far side up) placed as a straight-down camera would show its
    dice on ``side`` of the frame's centre: turned so its far side points away from the
    centre, and the frame made longer on the other side (640x1000 or 1000x640)."""
    k = {"above": 0, "right": 1, "below": 2, "left": 3}[side]
    turned = np.ascontiguousarray(np.rot90(img, -k))
    top, bottom, left, right = {0: (0, 360, 0, 0), 1: (0, 0, 360, 0), 2: (360, 0, 0, 0)}.get(
        k, (0, 0, 0, 360)
    )
    return cv2.copyMakeBorder(turned, top, bottom, left, right, cv2.BORDER_REPLICATE)


def read_values(dice) -> list:
    """The values of ``dice`` (readings, or the JSON dicts ``companion read`` prints) sorted,
    an unsure die's None last: a failing comparison then shows which die was left unsure
    instead of failing to sort None among numbers."""
    values = [d["value"] if isinstance(d, dict) else d.value for d in dice]
    return sorted(values, key=lambda v: (v is None, 0 if v is None else v))


def models_with_card(tmp_path, **change) -> Path:
    """A copy of the shipped models in ``tmp_path``/models, its card's keys ``change``d."""
    from companion.vision.reader import model_dir

    models = tmp_path / "models"
    shutil.copytree(model_dir(), models, ignore=shutil.ignore_patterns("__*"))
    card = json.loads((models / "dice.json").read_text())
    (models / "dice.json").write_text(json.dumps({**card, **change}))
    return models

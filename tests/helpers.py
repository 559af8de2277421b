"""Small builders shared by tests (not fixtures: plain functions)."""

from __future__ import annotations

import csv
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

# Two rolls drawn on a rendered table, replayed as a camera's frames (the integration tests'
# ``rolls_folder``).
ROLLS = [[1, 2, 3, 4, 5], [6, 6, 2, 3, 1]]


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


# The golden photos (tests/data/dice, its CREDITS.md) and the ones the shipped reader does not
# read entirely right: a die read wrong, or left unsure for a player to confirm.
GOLDEN = Path(__file__).parent / "data" / "dice"
NOT_RIGHT = {
    "epanemu-test_dice_219_jpg.jpg": "the red 2 is only a faint peak (0.29), and its front "
    "face's 3 is read instead (0.90)",
}


FIELDS = ["filename", "width", "height", "value", "xmin", "ymin", "xmax", "ymax", "split"]


def label(filename: str, value: int, box: tuple, split: str, side: int = 640) -> dict:
    """One row of a labels.csv: a die of ``value`` at ``box`` in a ``side``-px photo."""
    x0, y0, x1, y1 = box
    return dict(
        filename=filename,
        width=side,
        height=side,
        value=value,
        xmin=x0,
        ymin=y0,
        xmax=x1,
        ymax=y1,
        split=split,
    )


def write_set(folder: Path, rows: list[dict]) -> None:
    folder.mkdir(parents=True)
    with open(folder / "labels.csv", "w", newline="") as f:
        out = csv.DictWriter(f, FIELDS)
        out.writeheader()
        out.writerows(rows)


def golden_set(root: Path, split: str = "heldout", names: dict | None = None) -> dict:
    """The golden photos as a labelled set in ``root/golden``, as rows of ``split``;
    ``names`` (golden name -> file name) picks and renames some of them."""
    cases = json.loads((GOLDEN / "expected.json").read_text())
    names = names or {name: name for name in cases}
    rows = []
    for name, filename in names.items():
        case = cases[name]
        for value, box in zip(case["values"], case["boxes"], strict=True):
            rows.append(label(filename, value, box, split, side=0))
    write_set(root / "golden", rows)
    for name, filename in names.items():
        shutil.copy(GOLDEN / name, root / "golden" / filename)
    return {name: cases[name] for name in names}


def golden_dev_set(root: Path) -> dict:
    """The golden photos the shipped reader reads right, renamed into the dev split."""
    from companion.training.evaluate import is_dev

    names = {}
    for i, name in enumerate(sorted(json.loads((GOLDEN / "expected.json").read_text()))):
        if name in NOT_RIGHT:
            continue
        k = 0
        while not is_dev(f"golden{i}x{k}.jpg"):
            k += 1
        names[name] = f"golden{i}x{k}.jpg"
    return golden_set(root, "train", names)

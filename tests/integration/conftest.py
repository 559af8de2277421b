"""Fixtures shared by the integration tests."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROLLS

REPO = Path(__file__).parents[2]


# What a wheel is never built from, at the top of the tree: setuptools copies the package
# into build/ and leaves there whatever an earlier build put (a file since removed would
# ship again); the rest is large and not source.
NOT_SOURCE = {".git", ".venv", ".arm64", "build", "dist", "artifacts", "data"}


def _not_source(folder: str, names: list[str]) -> set[str]:
    top = Path(folder) == REPO
    return {
        n
        for n in names
        if n == "__pycache__" or (top and (n in NOT_SOURCE or n.endswith(".egg-info")))
    }


@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> Path:
    """This work tree built as the wheel a Pi installs, from a copy of its sources."""
    out = tmp_path_factory.mktemp("wheel")
    source = tmp_path_factory.mktemp("source") / "tree"
    shutil.copytree(REPO, source, ignore=_not_source)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(out), str(source)],
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stderr
    (found,) = out.glob("table_companion-*.whl")
    return found


@pytest.fixture
def config(tmp_path, monkeypatch):
    """A config file whose games and taught dice live under ``tmp_path / "data"``."""
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[storage]\ndata_dir = "{tmp_path / "data"}"\n')
    monkeypatch.setenv("COMPANION_CONFIG", str(cfg))
    return cfg


@pytest.fixture(scope="module")
def reader():
    """The dice reader with the shipped models."""
    from companion.vision.reader import DiceReader

    return DiceReader()


@pytest.fixture(scope="module")
def demo_folder(tmp_path_factory) -> Path:
    """The frames `make run` replays (companion.device.demo)."""
    from companion.device.demo import demo_frames

    return demo_frames(tmp_path_factory.mktemp("demo"))


@pytest.fixture(scope="module")
def rolls_folder(tmp_path_factory) -> Path:
    """ROLLS as a folder of camera frames."""
    import cv2

    from companion.training import scenes

    folder = tmp_path_factory.mktemp("rolls")
    for i, frame in enumerate(scenes.roll_sequence(99, ROLLS)):
        cv2.imwrite(str(folder / f"f{i:03d}.png"), frame)
    return folder

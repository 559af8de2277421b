"""Fixtures shared by the integration tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).parents[2]


@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> Path:
    """This work tree built as the wheel a Pi installs."""
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(out), str(REPO)],
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stderr
    (found,) = out.glob("table_companion-*.whl")
    return found


@pytest.fixture(scope="module")
def train():
    """models/recipe's train.py, imported as the recipe's scripts import each other (its
    folder on the path while the module's tests run). Training only: a test using it is
    skipped where PyTorch (the `train` extra) is not installed."""
    pytest.importorskip("torch")
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(REPO / "models" / "recipe"))
        import train

        yield train


@pytest.fixture
def config(tmp_path, monkeypatch):
    """A config file whose games and taught dice live under ``tmp_path / "data"``."""
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[storage]\ndata_dir = "{tmp_path / "data"}"\n')
    monkeypatch.setenv("COMPANION_CONFIG", str(cfg))
    return cfg

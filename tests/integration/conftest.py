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


@pytest.fixture
def config(tmp_path, monkeypatch):
    """A config file whose games and taught dice live under ``tmp_path / "data"``."""
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[storage]\ndata_dir = "{tmp_path / "data"}"\n')
    monkeypatch.setenv("COMPANION_CONFIG", str(cfg))
    return cfg

"""Options a host keeps on the device for a game, filled once: a file
``<data dir>/options/<game>.json`` (``{"catalogue": ...}`` for My Island, their box's tiles)
whose options every new game of that game starts from; the options a new game is created
with (the lobby's, "Play again"'s) come on top. docs/games.md says more."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask import current_app

from companion.errors import CompanionError

MAX_FILE = 64 * 1024  # bytes: a box's tile catalogue is a few kilobytes


class SavedOptionsError(CompanionError, ValueError):
    """The host's options file for a game cannot be used; the message names the file."""

    code = "setup/saved_options"


def options_dir() -> Path | None:
    """Where the host's options files are: beside the games' database (none in memory)."""
    database = current_app.config.get("DATABASE", ":memory:")
    folder = current_app.config.get("OPTIONS_DIR")
    if folder:
        return Path(folder)
    return None if database == ":memory:" else Path(database).parent / "options"


def saved_options(game: str) -> dict[str, Any]:
    """The options the host saved for ``game`` ({} when there is no file)."""
    folder = options_dir()
    path = None if folder is None else folder / f"{game}.json"
    if path is None or not path.exists():
        return {}
    try:
        if path.stat().st_size > MAX_FILE:
            raise SavedOptionsError(f"{path} is larger than {MAX_FILE // 1024} KB")
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError) as exc:
        raise SavedOptionsError(f"cannot read {path}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise SavedOptionsError(f"{path} is not valid JSON: {exc}; fix it or remove it") from None
    if not isinstance(data, dict):
        raise SavedOptionsError(
            f'{path} must hold an object of options, such as {{"catalogue": ...}}'
        )
    return data

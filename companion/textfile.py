"""Reading a text file a person wrote (the config, a board file), with what is wrong named."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from companion.errors import CompanionError


def read_text(
    path: Path,
    what: str,
    error: Callable[[str, bool], CompanionError],
    *,
    missing: str,
    folder: str,
) -> str:
    """The UTF-8 text of ``path``, a byte-order mark (Windows Notepad's) dropped. Otherwise
    ``error(message, gone)`` is raised: ``missing`` or ``folder`` when the file is not there
    or is a folder, else what is wrong with it; ``gone`` says whether there was no file to
    read at all, or one that is not text."""
    try:
        return path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise error(missing, True) from None
    except IsADirectoryError:
        raise error(folder, True) from None
    except UnicodeDecodeError as exc:
        raise error(
            f"{path} is not UTF-8 text (byte {exc.start}): save it as UTF-8", False
        ) from None
    except OSError as exc:
        raise error(f"cannot read the {what} {path}: {exc.strerror}", True) from None

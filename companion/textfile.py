"""Reading a text file a person wrote (the config, a board file), with what is wrong named;
writing one the device keeps (a taught die) whole or not at all."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path

from companion.errors import CompanionError, StorageError


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


def write_whole(path: Path, text: str, what: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: a full disk or a killed process leaves
    the file written before as it was, never half a file. A failure is a ``StorageError``
    naming ``what`` was being saved and how to make room."""
    part = path.with_name(f".{path.name}.part")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(part, "w") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(part, path)
    except OSError as exc:
        with contextlib.suppress(OSError):  # the folder itself may be what failed
            part.unlink()
        raise StorageError(
            f"could not save {what} to {path} ({exc.strerror}); free some space "
            "or set [storage] data_dir to a folder the companion can write, then teach "
            "it again"
        ) from None

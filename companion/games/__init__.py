"""The games the companion knows: every subpackage here is one game, which registers itself
(``companion.engine.game.register``) when imported. ``load`` imports them all, so a new
game is a new package here and touches no other file."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable


def load(path: Iterable[str] = __path__, prefix: str = f"{__name__}.") -> list[str]:
    """Import every package found in ``path`` (by default this one's subpackages), each
    registering its game; returns their module names, sorted."""
    names = sorted(m.name for m in pkgutil.iter_modules(list(path), prefix) if m.ispkg)
    for name in names:
        importlib.import_module(name)
    return names


load()

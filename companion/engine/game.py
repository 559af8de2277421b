"""The registry of games, and actions to and from the log's JSON.

What a game is lives in ``companion.engine.contract`` (its names are re-exported here). The
engine (``companion.engine.session``) owns the log, persistence, undo/redo and
stale-action checks.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from companion.engine.contract import (
    Button,
    DiceRolled,
    DiceSpec,
    Game,
    GameBase,
    Option,
    Outcome,
    ScoreLine,
    ScoreRow,
    ToAct,
    action_to_json,
    check_options,
)
from companion.errors import IllegalAction, UnknownGame

__all__ = [
    "Button",
    "DiceRolled",
    "DiceSpec",
    "Game",
    "GameBase",
    "Option",
    "Outcome",
    "ScoreLine",
    "ScoreRow",
    "ToAct",
    "action_from_json",
    "action_to_json",
    "all_games",
    "check_options",
    "get_game",
    "register",
]


def _freeze(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    return value


def action_from_json(game: Game, data: Mapping[str, Any]) -> Any:
    """Rebuild an action from its JSON form; unknown or malformed ones are IllegalAction."""
    if not isinstance(data, Mapping) or "type" not in data:
        raise IllegalAction(f"an action needs a 'type'; got {data!r}", code="action/malformed")
    kind = data["type"]
    cls = game.actions.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise IllegalAction(
            f"{game.title} has no action {kind!r}; known: {', '.join(sorted(game.actions))}",
            code="action/unknown",
        )
    names = {f.name for f in dataclasses.fields(cls)}
    extra = set(data) - names - {"type"}
    if extra:
        raise IllegalAction(
            f"action {kind!r} takes no field(s) {', '.join(sorted(extra))}",
            code="action/malformed",
        )
    try:
        return cls(**{k: _freeze(v) for k, v in data.items() if k != "type"})
    except TypeError as exc:
        raise IllegalAction(
            f"action {kind!r} is malformed: {exc}", code="action/malformed"
        ) from exc


_REGISTRY: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Make a game available by its name (called at the bottom of each game module)."""
    _REGISTRY[game.name] = game
    return game


def get_game(name: str) -> Game:
    """The registered game called ``name``."""
    import companion.games  # noqa: F401  (registers the built-in games)

    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):  # TypeError: not a name at all (a list from a JSON body)
        raise UnknownGame(
            f"no game called {name!r}; known games: {', '.join(sorted(_REGISTRY))}"
        ) from None


def all_games() -> list[Game]:
    """Every registered game, by name."""
    import companion.games  # noqa: F401

    return [_REGISTRY[k] for k in sorted(_REGISTRY)]

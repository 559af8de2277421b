"""The registry of games, and actions to and from the log's JSON.

What a game is lives in ``companion.engine.contract`` (its names are re-exported here). The
engine (``companion.engine.session``) owns the log, persistence, undo/redo and
stale-action checks.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any

from companion.engine.contract import (
    Button,
    DiceRolled,
    DiceSpec,
    Game,
    GameBase,
    Outcome,
    ScoreLine,
    ScoreRow,
    ToAct,
    action_to_json,
)
from companion.engine.options import Option, check_options
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


def fits(value: Any, hint: Any) -> bool:
    """Does ``value`` (as read from JSON and frozen) have the type ``hint``? A bool is no
    int, and a float no int (1.0 as a hex's axis once broke a game for good); hints it does
    not know it lets through, for the game's ``apply`` to check."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return True
    if hint is None or hint is type(None):
        return value is None
    if origin in (typing.Union, types.UnionType):
        return any(fits(value, a) for a in args)
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if hint is str:
        return isinstance(value, str)
    if origin is tuple:
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(fits(v, args[0]) for v in value)
        return len(value) == len(args) and all(fits(v, a) for v, a in zip(value, args, strict=True))
    return True


def _words(hint: Any) -> str:
    """A type hint as a person reads it: "a whole number", "a list of 2 whole numbers"."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is None or hint is type(None):
        return "left out (null)"
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_words(a) for a in args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return f"a list, each item {_words(args[0])}"
        return f"a list of {len(args)}: {', '.join(_words(a) for a in args)}"
    names = {bool: "true or false", int: "a whole number", float: "a number", str: "text"}
    return names.get(hint, str(hint))


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
    values = {k: _freeze(v) for k, v in data.items() if k != "type"}
    hints = typing.get_type_hints(cls)
    for name, value in values.items():
        if not fits(value, hints[name]):
            raise IllegalAction(
                f"action {kind!r}: {name} must be {_words(hints[name])}, not {data[name]!r}",
                code="action/malformed",
            )
    try:
        return cls(**values)
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

"""The one interface every game implements, and the registry of games.

A game is a module, not a framework: its constants as data, ``setup``, a pure
``apply`` on frozen dataclasses, ``legal_actions``, ``outcome``, ``score`` and
``player_view``. The engine (``companion.engine.session``) owns the log,
persistence, undo/redo and stale-action checks.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from companion.errors import IllegalAction, UnknownGame


@dataclass(frozen=True)
class DiceRolled:
    """A physical roll entering the game as data (a chance action).

    ``values`` are the faces read, in die order (die 1 first). Rules code never
    rolls: the camera, a phone or a test supplies the values.
    """

    type: ClassVar[str] = "dice_rolled"
    values: tuple[int, ...]
    source: str = "manual"
    confidence: float = 1.0
    seat: None = None


@dataclass(frozen=True)
class DiceSpec:
    """What the game wants rolled now: how many dice, and what each face means.

    ``showing``, for a reroll: the faces the dice on the table show now (the roll being
    rerolled), so that dice seen at rest again with those faces are not taken for a
    reroll."""

    count: int
    faces: Mapping[int, str]
    purpose: str = "roll"
    showing: tuple[int, ...] = ()

    def check(self, values: tuple[int, ...]) -> None:
        """Raise IllegalAction unless ``values`` is a roll this spec accepts."""
        if len(values) != self.count:
            raise IllegalAction(
                f"expected {self.count} dice for this {self.purpose}, got {len(values)}: "
                f"{list(values)}",
                code="roll/wrong_count",
            )
        for i, v in enumerate(values, start=1):
            if v not in self.faces:
                raise IllegalAction(
                    f"die {i} shows {v!r}, which is not a face of these dice "
                    f"(faces: {sorted(self.faces)})",
                    code="roll/bad_face",
                )


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended."""

    reason: str
    winners: tuple[int, ...]
    totals: tuple[int, ...]


class Game(Protocol):
    """What the engine needs from a game module.

    A game whose dice may be rolled again also has ``reroll_dice(state)``: the
    ``DiceSpec`` of a reroll whenever one would be accepted (its ``showing`` the faces
    rerolled), else None; the device then enters a camera's roll as the game's action
    named ``reroll``."""

    name: str
    title: str
    min_players: int
    max_players: int
    actions: Mapping[str, type]

    def setup(self, players: int, options: Mapping[str, Any]) -> Any: ...
    def dice(self, state: Any) -> DiceSpec | None: ...
    def legal_actions(self, state: Any, seat: int) -> list: ...
    def apply(self, state: Any, action: Any) -> Any: ...
    def outcome(self, state: Any) -> Outcome | None: ...
    def score(self, state: Any) -> list[dict]: ...
    def player_view(self, state: Any, seat: int | None) -> dict: ...
    def state_to_json(self, state: Any) -> dict: ...
    def state_from_json(self, data: Mapping[str, Any]) -> Any: ...


def _freeze(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    return value


def _thaw(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_thaw(v) for v in value]
    return value


def action_to_json(action: Any) -> dict:
    """An action as the JSON object stored in the log."""
    data = {"type": action.type}
    for f in dataclasses.fields(action):
        data[f.name] = _thaw(getattr(action, f.name))
    return data


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

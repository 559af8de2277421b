"""A game's setup options: their schema (``Option``), from which the lobby builds its form,
and the check of a new game's options against it (``check_options``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.errors import IllegalAction

if TYPE_CHECKING:
    from companion.engine.contract import Game


OPTION_KINDS = ("bool", "choice", "int", "text", "data")


@dataclass(frozen=True)
class Option:
    """One setup option, from which the lobby builds its form and the engine checks a new
    game's options. ``kind``: "bool", "choice" (one of ``choices``, each ``(value,
    label)``), "int" (``minimum`` to ``maximum``), "text" (one line, at most ``maximum``
    characters) or "data" (any JSON value, set through the API only, as a custom map).
    ``players``: the player counts it applies to (inclusive), or None for every count."""

    name: str
    label: str
    kind: str
    default: Any = None
    choices: tuple[tuple[Any, str], ...] = ()
    help: str = ""
    players: tuple[int, int] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in OPTION_KINDS:
            raise ValueError(f"option kind {self.kind!r} is none of {', '.join(OPTION_KINDS)}")

    def applies(self, players: int) -> bool:
        return self.players is None or self.players[0] <= players <= self.players[1]

    def check(self, value: Any) -> None:
        """Raise IllegalAction unless ``value`` is one this option takes."""

        def bad(wanted: str) -> IllegalAction:
            return IllegalAction(
                f"option {self.name!r} ({self.label}) must be {wanted}, not {value!r}",
                code="setup/bad_option",
            )

        is_int = isinstance(value, int) and not isinstance(value, bool)
        if self.kind == "bool" and not isinstance(value, bool):
            raise bad("true or false")
        if self.kind == "choice" and value not in [v for v, _ in self.choices]:
            raise bad(f"one of {', '.join(repr(v) for v, _ in self.choices)}")
        if self.kind == "text" and not (
            isinstance(value, str) and (self.maximum is None or len(value) <= self.maximum)
        ):
            raise bad(f"text of at most {self.maximum} characters")
        if self.kind == "int" and not (
            is_int
            and (self.minimum is None or value >= self.minimum)
            and (self.maximum is None or value <= self.maximum)
        ):
            raise bad(f"a whole number from {self.minimum} to {self.maximum}")

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "label": self.label,
            "kind": self.kind,
            "default": self.default,
            "choices": [{"value": v, "label": label} for v, label in self.choices],
            "help": self.help,
            "players": None if self.players is None else list(self.players),
            "minimum": self.minimum,
            "maximum": self.maximum,
        }


def check_options(game: Game, players: int, options: Mapping[str, Any]) -> None:
    """Raise IllegalAction (naming the option) unless ``options`` suit ``game`` for this many
    ``players``: every name known, every value of its kind, none that does not apply to this
    many players (a solo difficulty in a 3-player game would be ignored, and the game
    reported as what it is not)."""
    if not isinstance(players, int) or isinstance(players, bool):
        raise IllegalAction(
            f"players must be a whole number, not {players!r}", code="setup/invalid"
        )
    if not game.min_players <= players <= game.max_players:
        raise IllegalAction(
            f"{game.title} is for {game.min_players} to {game.max_players} players, not {players}",
            code="setup/invalid",
        )
    schema = {o.name: o for o in game.options}
    unknown = sorted(set(options) - set(schema))
    if unknown:
        raise IllegalAction(
            f"{game.title} has no option {', '.join(map(repr, unknown))}; its options: "
            f"{', '.join(sorted(schema)) or 'none'}",
            code="setup/bad_option",
        )
    for name, value in options.items():
        option = schema[name]
        if not option.applies(players):
            low, high = option.players  # type: ignore[misc]
            counts = (
                f"{low} player" + ("s" if low > 1 else "")
                if low == high
                else (f"{low} to {high} players")
            )
            raise IllegalAction(
                f"option {name!r} ({option.label}) is for {counts} only, not {players}",
                code="setup/bad_option",
            )
        option.check(value)

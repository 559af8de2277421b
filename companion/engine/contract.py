"""The game contract: what every game gives the engine and the shell, written down once.

A game is an object registered with ``companion.engine.game.register``, in a package of
its own under ``companion/games/``. The shell (lobby, seats, live link, ranking, undo,
roll entry, device, exports) knows games only through the members listed in ``Game``;
``GameBase`` gives each one a default that a game without that feature can keep. The
conformance test (tests/unit/test_conformance.py) checks every registered game against it.

The values the contract trades in are small frozen dataclasses: a roll read
(``DiceRolled``), the dice wanted (``DiceSpec``), who acts (``ToAct``), the button's
meaning (``Button``), a setup option (``Option``, in options.py), a score row (``ScoreRow`` of
``ScoreLine``) and the end of a game (``Outcome``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from companion.engine.options import Option
from companion.errors import BadBoard, IllegalAction


@dataclass(frozen=True)
class DiceRolled:
    """A physical roll entering the game as data (a chance action).

    ``values`` are the faces read, in die order (die 1 first). Rules code never
    rolls: the camera, a phone or a test supplies the values. A game turns it into
    its own action with ``roll_action`` (a reroll, say) before it is applied.
    """

    type: ClassVar[str] = "dice_rolled"
    values: tuple[int, ...]
    source: str = "manual"
    confidence: float = 1.0
    seat: None = None


@dataclass(frozen=True)
class DiceSpec:
    """What the game wants rolled now: how many dice, and what each face means.

    ``faces`` maps each face value to its name (the number itself for a plain d6).
    ``dice``, where the dice differ: each die's name in die order ("white", "black"),
    else empty. ``purpose`` says what the roll is for, shown to people ("roll",
    "reroll"). ``showing``, for a reroll: the faces the dice on the table show now (the
    roll being rerolled), so that dice seen at rest again with those faces are not taken
    for a reroll."""

    count: int
    faces: Mapping[int, str]
    purpose: str = "roll"
    showing: tuple[int, ...] = ()
    dice: tuple[str, ...] = ()

    @property
    def reroll(self) -> bool:
        """Is this the rolling again of dice already on the table?"""
        return bool(self.showing)

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

    def to_json(self) -> dict:
        return {
            "count": self.count,
            "faces": {str(k): v for k, v in self.faces.items()},
            "purpose": self.purpose,
            "showing": list(self.showing),
            "dice": list(self.dice),
        }


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: why, the winning seats (none: nobody won, as a solo
    game lost) and each seat's total."""

    reason: str
    winners: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class ToAct:
    """Who the game waits on now: these seats (one, or several at once), the table (a
    roll, the button, a card turned up), or both; nobody once the game is over."""

    seats: tuple[int, ...] = ()
    table: bool = False

    def to_json(self) -> dict:
        return {"seats": list(self.seats), "table": self.table}


@dataclass(frozen=True)
class Button:
    """What pressing the hardware button does now: ``action``, shown as ``label`` beside the
    button on the table page. (Holding the button is always undo; the shell owns that.)"""

    action: Any
    label: str


@dataclass(frozen=True)
class ScoreLine:
    """One named, labelled line of a participant's score ("camp_cards", "Camp cards", 12)."""

    key: str
    label: str
    points: int

    def to_json(self) -> dict:
        return {"key": self.key, "label": self.label, "points": self.points}


@dataclass(frozen=True)
class ScoreRow:
    """A participant's score: a seat (``seat``), or a virtual player the game plays itself
    (``seat`` None, ``name`` given: a solo game's automa). ``total`` is what ranks it; the
    end screen, chart and exports show ``lines``."""

    total: int
    lines: tuple[ScoreLine, ...] = ()
    seat: int | None = None
    name: str | None = None

    def __post_init__(self) -> None:
        if (self.seat is None) == (self.name is None):
            raise ValueError("a score row is a seat's or a named virtual player's, not both")

    def to_json(self) -> dict:
        return {
            "seat": self.seat,
            "name": self.name,
            "total": self.total,
            "lines": [line.to_json() for line in self.lines],
        }


class Game(Protocol):
    """What a game gives the engine and the shell.

    Rules: ``setup(players, options)`` (raising IllegalAction on bad options; nothing is
    stored then), a pure ``apply(state, action)`` on frozen dataclasses (raising
    IllegalAction for an illegal one), ``legal_actions(state, seat)`` (None: the table's),
    ``outcome(state)`` (None while the game goes on), ``state_to_json`` and
    ``state_from_json``.

    Metadata: ``name`` (its code name), ``title``, ``min_players``, ``max_players``,
    ``hidden_information`` (True where a seat holds what others may not see), ``options``
    (the setup options' schema), ``demo_options`` (what the embedded demo sets a game up
    with, where the defaults leave something to tell at the table), ``demo_die`` (the faces of
    the symbol die the demo's camera rolls, each named as a symbol the dice renderer draws
    and taught from rendered shows; empty: standard dice) and ``actions`` (type name to
    dataclass, for the log).

    The table: ``to_act(state)``; ``button(state)``; ``finish_action(state)``, the action
    that ends the game now at the host's word (None where it cannot be ended early);
    ``dice(state)``, the ``DiceSpec`` wanted now, a reroll's included, and
    ``roll_action(state, roll)``, the action a read ``DiceRolled`` becomes;
    ``round_of(state)``, the round shown and charted (None: a game without rounds).

    People: ``describe(action)``, one sentence of what an action did, with no secret in
    it, for the history and for Undo's question; ``score_rows(state)``, each participant's
    total and labelled lines, from which the ranking, end screen, chart and exports are
    built; ``player_view(state, seat)`` (seat None: the table, and anyone without a seat)
    and ``action_view(action, seat)`` (None: the seat may not see that action's details),
    so that the server never sends a page what its seat may not see.

    Pages: ``pages``, a Flask blueprint of the game's package (None: the shell's pages
    alone), named as the package, whose templates ``<name>/head.html``, ``<name>/table.html``,
    ``<name>/play.html`` and ``<name>/scripts.html`` the shell's pages include where they
    exist; its scripts set ``TC.game`` (web/static/common.js says what it may hold).

    Files: ``board_file(state, seat)``, a seat's board as a file of the game's own (None:
    the game has none), which ``score_file(data)`` scores (``companion score GAME FILE``;
    BadBoard naming what is wrong with it).
    """

    name: str
    title: str
    min_players: int
    max_players: int
    hidden_information: bool
    options: Sequence[Option]
    demo_options: Mapping[str, Any]
    demo_die: tuple[str, ...]
    actions: Mapping[str, type]
    pages: Any

    def setup(self, players: int, options: Mapping[str, Any]) -> Any: ...
    def apply(self, state: Any, action: Any) -> Any: ...
    def legal_actions(self, state: Any, seat: int | None) -> list: ...
    def outcome(self, state: Any) -> Outcome | None: ...
    def state_to_json(self, state: Any) -> dict: ...
    def state_from_json(self, data: Mapping[str, Any]) -> Any: ...
    def to_act(self, state: Any) -> ToAct: ...
    def button(self, state: Any) -> Button | None: ...
    def finish_action(self, state: Any) -> Any | None: ...
    def dice(self, state: Any) -> DiceSpec | None: ...
    def roll_action(self, state: Any, roll: DiceRolled) -> Any: ...
    def round_of(self, state: Any) -> int | None: ...
    def describe(self, action: Any) -> str: ...
    def score_rows(self, state: Any) -> list[ScoreRow]: ...
    def player_view(self, state: Any, seat: int | None) -> dict: ...
    def action_view(self, action: Any, seat: int | None) -> dict | None: ...
    def board_file(self, state: Any, seat: int) -> dict | None: ...
    def score_file(self, data: Any) -> dict: ...


def action_to_json(action: Any) -> dict:
    """An action as the JSON object stored in the log."""
    data = {"type": action.type}
    for f in dataclasses.fields(action):
        data[f.name] = _thaw(getattr(action, f.name))
    return data


def _thaw(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_thaw(v) for v in value]
    return value


def _words(kind: str) -> str:
    return kind.replace("_", " ")


class GameBase:
    """The contract's defaults, for a game to inherit and override where it differs: no
    hidden information, no options, no dice, no button, everything public."""

    hidden_information = False
    options: Sequence[Option] = ()
    demo_options: Mapping[str, Any] = {}
    demo_die: tuple[str, ...] = ()
    actions: Mapping[str, type] = {}
    pages: Any = None

    def to_act(self, state: Any) -> ToAct:
        """Every seat with a legal action, and the table while it has one or dice are wanted."""
        if self.outcome(state) is not None:  # type: ignore[attr-defined]
            return ToAct()
        seats = tuple(
            s
            for s in range(state.players)
            if self.legal_actions(state, s)  # type: ignore[attr-defined]
        )
        table = self.dice(state) is not None or bool(self.legal_actions(state, None))  # type: ignore[attr-defined]
        return ToAct(seats, table)

    def button(self, state: Any) -> Button | None:
        return None

    def finish_action(self, state: Any) -> Any | None:
        return None

    def dice(self, state: Any) -> DiceSpec | None:
        return None

    def roll_action(self, state: Any, roll: DiceRolled) -> Any:
        return roll

    def round_of(self, state: Any) -> int | None:
        return getattr(state, "round", None)

    def describe(self, action: Any) -> str:
        if isinstance(action, DiceRolled):
            return f"Rolled {' '.join(map(str, action.values))}."
        return f"{_words(action.type).capitalize()}."

    def player_view(self, state: Any, seat: int | None) -> dict:
        return self.state_to_json(state)  # type: ignore[attr-defined]

    def action_view(self, action: Any, seat: int | None) -> dict | None:
        return action_to_json(action)

    def board_file(self, state: Any, seat: int) -> dict | None:
        return None

    def score_file(self, data: Any) -> dict:
        raise BadBoard(
            f"{self.title} has no board file to score"  # type: ignore[attr-defined]
            " (companion games lists the games; their docs say which have one)",
            code="board/unsupported",
        )

"""The score pad's setup, state and actions, as frozen dataclasses.

A sheet of rounds: in each round every player's points are entered (in each category,
where the sheet has categories), the round button moves to the next round, and the dice
read meanwhile are shown with their sum. Points are entered, not rolled: the dice only
help the players count.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

MAX_PLAYERS = 12
MAX_CATEGORIES = 12
CATEGORY_LENGTH = 20  # characters: a category's name fits a phone's row
MAX_DICE = 10
MAX_ROUNDS = 99
POINTS_LIMIT = 100_000  # an entry's size either way: a typo of many digits is refused


@dataclass(frozen=True)
class Sheet:
    """The setup: the categories scored each round (none: one line, "Points"), the dice
    read per roll (0: none), the rounds to play (0: until the host ends the game), and
    whether the lowest total wins."""

    categories: tuple[str, ...] = ()
    dice: int = 2
    rounds: int = 0
    low_wins: bool = False

    @property
    def lines(self) -> tuple[str, ...]:
        """What each round asks of each player."""
        return self.categories or ("Points",)


@dataclass(frozen=True)
class State:
    players: int
    sheet: Sheet
    round: int = 1
    # (round, player, category) -> points entered; a later entry for the same place replaces
    points: Mapping[tuple[int, int, str], int] = field(default_factory=dict)
    roll: tuple[int, ...] | None = None  # the last dice read, shown with their sum
    ended: str | None = None

    def total(self, player: int, upto: int | None = None) -> int:
        """A player's total, of every round or of the rounds up to ``upto``."""
        return sum(
            v for (r, p, _), v in self.points.items() if p == player and (upto is None or r <= upto)
        )


@dataclass(frozen=True)
class EnterPoints:
    """``player``'s points in ``category`` this round, entered by their own phone (``seat``
    is theirs) or at the table (``seat`` None). Entered again, it replaces the first."""

    type: ClassVar[str] = "enter_points"
    player: int
    category: str
    points: int
    seat: int | None = None


@dataclass(frozen=True)
class NextRound:
    """The round button: this round is scored, the next begins (after the last, the end)."""

    type: ClassVar[str] = "next_round"
    seat: None = None


@dataclass(frozen=True)
class Finish:
    """End the game now: the totals as they stand are the result."""

    type: ClassVar[str] = "finish"
    seat: None = None

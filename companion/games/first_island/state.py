"""The First Island's state and actions, as frozen dataclasses.

The state holds no derived data: camps and scores are computed from the cells.
Dicts inside frozen dataclasses are never mutated; ``apply`` copies them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import ClassVar

from companion.games.first_island.hexgrid import Hex, Island
from companion.games.first_island.model import CampCard, Cell, PlacementRef

DIFFICULTIES = ("casual", "standard", "hard", "impossible")
VARIANTS = ("standard", "easy")
SOLO_ROUNDS = 12


@dataclass(frozen=True)
class Options:
    """Setup options: camp cards on or off, the card variant, the solo difficulty."""

    camp_cards: bool = True
    variant: str = "standard"  # multiplayer: "standard" or "easy"
    difficulty: str | None = None  # solo only: casual, standard, hard, impossible

    @property
    def card_variant(self) -> str:
        return self.difficulty or self.variant

    @property
    def overrides_allowed(self) -> bool:
        return self.difficulty not in ("hard", "impossible")


@dataclass(frozen=True)
class PlayerBoard:
    """One player's island sheet, and what they have done this turn."""

    cells: Mapping[Hex, Cell] = field(default_factory=dict)
    overrides: tuple[str, ...] = ()  # override boxes crossed, in the order used
    claimed: tuple[tuple[PlacementRef, ...], ...] = ()
    scored_cards: tuple[CampCard, ...] = ()
    hand: CampCard | None = None
    dice_used: frozenset[int] = frozenset()  # die numbers 1..5 used this turn
    marks: int = 0  # hexes marked this turn
    override_this_turn: bool = False
    card_this_round: bool = False  # a camp card scored before this round's roll (one a round)


@dataclass(frozen=True)
class State:
    players: int
    island: Island
    options: Options
    boards: tuple[PlayerBoard, ...]
    round: int = 1
    roll: tuple[int, ...] | None = None
    rerolled: bool = False
    roll_kept: bool = False  # the roller chose not to reroll (by KeepRoll, or by marking)
    table: CampCard | None = None  # the S card on the table
    table_scored_by: frozenset[int] = frozenset()
    table_spent: bool = False  # the single S card was scored and is gone
    ended: str | None = None  # why the game ended, once it has

    def with_board(self, seat: int, board: PlayerBoard) -> State:
        """This state with seat's board replaced."""
        boards = list(self.boards)
        boards[seat] = board
        return replace(self, boards=tuple(boards))

    @property
    def solo(self) -> bool:
        return self.players == 1

    @property
    def roller(self) -> int:
        """The seat that rolls this round (players take turns, seat 1 first): theirs is the
        choice to reroll."""
        return (self.round - 1) % self.players

    @property
    def s_card_due(self) -> bool:
        """Must an S card be turned up (its points told) before the next roll? The rulebook
        keeps one face up on the table; the device knows its points only when told."""
        return self.options.camp_cards and self.table is None and not self.table_spent

    @property
    def ending(self) -> bool:
        """Has a player scored a third camp card (multiplayer)? The game then ends when the
        scoring before the roll is over: others may still score their card in it."""
        return not self.solo and any(len(b.scored_cards) >= 3 for b in self.boards)

    def board_full(self, seat: int) -> bool:
        return len(self.boards[seat].cells) >= len(self.island)

    def seat_done(self, seat: int) -> bool:
        """Has ``seat`` marked all it must for the current roll?"""
        return self.boards[seat].marks >= 2 or self.board_full(seat)

    @property
    def phase(self) -> str:
        """ended | roll (waiting for the dice) | mark | done (everyone has marked)."""
        if self.ended:
            return "ended"
        if self.roll is None:
            return "roll"
        if all(self.seat_done(s) for s in range(self.players)):
            return "done"
        return "mark"


# -- actions -------------------------------------------------------------------
# A pick is a die number (1..5) or, for a tribe override, the tribe's name.
Pick = int | str


@dataclass(frozen=True)
class Mark:
    """Mark one hex with two picks: split on ``axis`` if the tribes differ, else large."""

    type: ClassVar[str] = "mark"
    seat: int
    hex: Hex
    picks: tuple[Pick, Pick]
    axis: int | None = None


@dataclass(frozen=True)
class Reroll:
    """The once-per-turn reroll of the dice showing one value 3+ times: all 5 faces after."""

    type: ClassVar[str] = "reroll"
    values: tuple[int, ...]
    source: str = "manual"
    confidence: float = 1.0
    seat: None = None


@dataclass(frozen=True)
class KeepRoll:
    """The roller keeps a roll that could be rerolled: the others may mark it now."""

    type: ClassVar[str] = "keep_roll"
    seat: int


@dataclass(frozen=True)
class ScoreCampCard:
    """Claim ``camp`` for the card in hand or the S card on the table, before a roll."""

    type: ClassVar[str] = "score_camp_card"
    seat: int
    card: str  # "hand" or "table"
    camp: tuple[PlacementRef, ...]
    shape: str | None = None  # which card it is, where the catalogue holds its deck's shapes


@dataclass(frozen=True)
class SkipCampCard:
    """Discard the card in hand and draw from the next-lower deck."""

    type: ClassVar[str] = "skip_camp_card"
    seat: int


@dataclass(frozen=True)
class DealTableCard:
    """A new S card turned face up on the table (a chance action: its points)."""

    type: ClassVar[str] = "deal_table_card"
    points: int
    seat: None = None


@dataclass(frozen=True)
class Advance:
    """The round button: everyone has marked; start the next round."""

    type: ClassVar[str] = "advance"
    seat: None = None


@dataclass(frozen=True)
class Finish:
    """End the game now and score it as it stands (the host's decision)."""

    type: ClassVar[str] = "finish"
    seat: None = None

"""The First War's state and actions, as frozen dataclasses.

Each side keeps its pieces by cell (healthy or wounded; how far each moved this turn and
where it came from, for an attacker's retreat), its development pyramid and what it paid.
The map keeps each revealed tile's terrain; a tile is face down until a piece discovers it
(the discovering phone names the terrain).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from companion.games.first_war.hexmap import Cell

KINDS = ("hunter", "farmer", "healer", "scientist")  # the rulebook's Types list, in order
TERRAINS = ("lake", "fields", "mountain", "plain", "forest")
TILES = {"lake": 36, "fields": 18, "mountain": 15, "plain": 14, "forest": 13}
SET_ASIDE_FIELDS = 5
PER_KIND = 20
STACK = 4  # own pieces a tile may hold
LEVELS = (3, 4, 5, 6)  # development cards in each level of the pyramid
ATTACK = {"hunter": 2, "farmer": 1, "healer": 0, "scientist": 0}
DEFEND = {"hunter": 1, "farmer": 2, "healer": 0, "scientist": 0}
PHASES = ("emergency", "hunters", "others", "conflict", "food", "research", "healing", "population")


@dataclass(frozen=True)
class Piece:
    kind: str
    wounded: bool = False
    steps: int = 0  # movement used this turn
    came: Cell | None = None  # the tile it attacked from, for its retreat
    stopped: bool = False  # entered an enemy tile, or was turned back by a lake


@dataclass(frozen=True)
class Card:
    """A development card's place (level 1 to 4, index from the left) and, once known, its
    printed activation cost and what it changes (the players' modifiers)."""

    level: int
    index: int


@dataclass(frozen=True)
class Side:
    cells: Mapping[Cell, tuple[Piece, ...]] = field(default_factory=dict)
    revealed: frozenset[Card] = frozenset()
    active: frozenset[Card] = frozenset()
    paid: Mapping[Card, int] = field(default_factory=dict)  # activation costs paid
    bonus: Mapping[str, int] = field(default_factory=dict)  # "move:hunter" -> +1, from cards
    emergency: bool = False

    def count(self, kind: str | None = None) -> int:
        return sum(1 for ps in self.cells.values() for p in ps if kind in (None, p.kind))

    def track(self, kind: str) -> int:
        return PER_KIND - self.count(kind)


@dataclass(frozen=True)
class Battle:
    """A contested tile being resolved: the defender's stacks (piece indices), then the
    attacker's cover (a stack for each attacking piece), then the retreats owed."""

    cell: Cell
    stacks: tuple[tuple[int, ...], ...] = ()
    retreats: tuple[tuple[int, Cell, int], ...] = ()  # (seat, from cell, piece index)


@dataclass(frozen=True)
class State:
    terrain: Mapping[Cell, str]  # revealed tiles
    sides: tuple[Side, Side]
    players: int = 2
    seat: int = 0  # whose turn
    phase: str = "emergency"
    turn: int = 1
    points: int = 0  # research points left this phase
    battle: Battle | None = None
    pending: tuple[Cell, ...] = ()  # population tiles waiting for the die
    wounds_owed: int = 0  # a food shortfall still to place
    level_iv: int | None = None  # who first had 3 Level IV cards active
    ended: str | None = None
    winner: int | None = None  # None with ended: a draw

    def pieces(self, seat: int, cell: Cell) -> tuple[Piece, ...]:
        return self.sides[seat].cells.get(cell, ())


# -- actions -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Emergency:
    """Declare a food emergency for this turn (at its start)."""

    type: ClassVar[str] = "emergency"
    seat: int


@dataclass(frozen=True)
class Done:
    """This phase is done (a movement phase, research): on to the next."""

    type: ClassVar[str] = "done"
    seat: int | None = None


@dataclass(frozen=True)
class Move:
    """Move one ``kind`` piece (``wounded`` or not) from ``frm`` to ``to`` (a neighbour, or a
    tile across a revealed lake); ``reveal`` names a face-down tile's terrain as it turns up."""

    type: ClassVar[str] = "move"
    seat: int
    frm: str
    to: str
    kind: str
    wounded: bool = False
    reveal: str = ""


@dataclass(frozen=True)
class Stacks:
    """The defender's stacks on the contested tile: a stack number for each of his pieces,
    in the tile's order."""

    type: ClassVar[str] = "stacks"
    seat: int
    stacks: tuple[int, ...]


@dataclass(frozen=True)
class Cover:
    """The attacker's cover: the defender's stack each attacking piece goes on, in order."""

    type: ClassVar[str] = "cover"
    seat: int
    covers: tuple[int, ...]


@dataclass(frozen=True)
class Retreat:
    """A retreating piece (index ``piece`` on the contested tile) goes ``to`` a tile (its
    terrain named in ``reveal`` where it was face down)."""

    type: ClassVar[str] = "retreat"
    seat: int
    piece: int
    to: str
    reveal: str = ""


@dataclass(frozen=True)
class Wound:
    """A food shortfall's wound, on the player's piece ``piece`` of tile ``cell``."""

    type: ClassVar[str] = "wound"
    seat: int
    cell: str
    piece: int


@dataclass(frozen=True)
class Reveal:
    """Spend research points to turn up the development card ``index`` of ``level``."""

    type: ClassVar[str] = "reveal"
    seat: int
    level: int
    index: int


@dataclass(frozen=True)
class Activate:
    """Spend research points to activate a revealed card: its printed ``cost`` (asked the
    first time), and what it changes, as the card says (``bonus`` "move:hunter", "attack:
    farmer" or "defend:hunter" and ``amount``), if anything this game models."""

    type: ClassVar[str] = "activate"
    seat: int
    level: int
    index: int
    cost: int
    bonus: str = ""
    amount: int = 0


@dataclass(frozen=True)
class Finish:
    """End the game now (the host): a draw."""

    type: ClassVar[str] = "finish"
    seat: None = None


ACTIONS = (Emergency, Done, Move, Stacks, Cover, Retreat, Wound, Reveal, Activate, Finish)

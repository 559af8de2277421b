"""My Island's state and actions, as frozen dataclasses.

The state keeps the island (each played tile with its owner), the players' hand sizes
(the device never sees the tiles in a hand; a tile is described when it is played), where
the game is, and the production-point ledger: every change of a player's PP is an
``Entry`` with its reason, so totals are sums and the pages can say why.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from companion.games.my_island.board import Board, Square
from companion.games.my_island.tiles import Tile

FACE_NAMES = ("mining", "fishing", "logging", "farming", "my-island")
DEFAULT_FACES = ("mining", "fishing", "logging", "farming", "farming", "my-island")
FISHING_VALUE = 4  # the rulebook's example prices Fishing at 4
TILE_LEFT_COST = 30  # paid per tile still in hand at the end
MISPLAY_PENALTY = 40
CAPITOL_COST = 20
PROTECTION_COST = 5
CAPITOL_SHARE = 10  # a white My-Island face, split among Capitol owners
CAPITOL_LOSS = 10  # a black My-Island face, from an unprotected Capitol
KINGDOM = 4  # road-connected own tiles a Capitol needs
HAND = 3
MAX_WHITE = 3

# what each ledger line counts, in the order the score lines show them
LINES = (
    ("road", "Road connections"),
    ("water", "Water connections"),
    ("port", "Port connections"),
    ("water_tile", "Water tiles"),
    ("dice", "Commerce dice"),
    ("capitol", "Capitol"),
    ("auction", "Set-up tiles bought"),
    ("penalty", "Misplayed tiles"),
    ("hand", "Tiles left in hand"),
)


@dataclass(frozen=True)
class Rules:
    """The setup options as the rules read them."""

    board: Board
    water_tiles: bool = False
    ports: bool = False
    kingdoms: bool = False
    auction: bool = False
    faces: tuple[str, ...] = DEFAULT_FACES  # the commerce die's faces 1 to 6
    values: Mapping[str, int] = field(default_factory=dict)  # each face's PP
    catalogue: Mapping[int, str] = field(default_factory=dict)  # tile number -> code


@dataclass(frozen=True)
class Placed:
    """A tile on the island: who played it (``by``), who owns it (None: a set-up, defensive
    or Water tile, which carry no marker), and how it came (setup, defence, play, water)."""

    tile: Tile
    by: int
    owner: int | None
    how: str
    white: tuple[str, ...] = ()  # its commerce dice, by face name
    black: tuple[tuple[int, str], ...] = ()  # (player, face) for each black die thrown


@dataclass(frozen=True)
class Entry:
    """One change of a player's production points, with its reason."""

    seat: int
    points: int
    key: str  # one of LINES
    reason: str


@dataclass(frozen=True)
class Proposal:
    """A tile put on a square and not yet confirmed: what it would score and why."""

    seat: int
    square: Square
    tile: Tile
    how: str
    entries: tuple[Entry, ...] = ()
    white: int = 0  # white commerce dice it would throw
    black: tuple[int, ...] = ()  # the players who would throw the black die


@dataclass(frozen=True)
class State:
    players: int
    rules: Rules
    phase: str = "select"  # select, setup, play, draw, over
    queue: tuple[int, ...] = ()  # who picks, sets up, plays or refills next, in order
    hands: tuple[int, ...] = ()
    island: Mapping[Square, Placed] = field(default_factory=dict)
    ledger: tuple[Entry, ...] = ()
    round: int = 0  # 0 during selection and set-up
    first: int = 0  # who holds the first-player pawn
    step: str = ""  # in a turn: defend, place, white, black, attack, after
    proposal: Proposal | None = None
    last: Square | None = None  # the tile this turn played
    black: tuple[int, ...] = ()  # still to throw the black die for this turn's tile
    attacker: int | None = None  # who rolled My-Island on the black die, choosing a Capitol
    roll: tuple[str, ...] = ()  # the last commerce dice read, by face name
    capitols: Mapping[int, Square] = field(default_factory=dict)
    protected: frozenset[int] = frozenset()
    playing_out: frozenset[int] = frozenset()
    bought: frozenset[Square] = frozenset()  # set-up tiles whose auction is over this turn
    ended: str | None = None

    @property
    def seat(self) -> int | None:
        """Whose turn (or pick, or refill) it is."""
        return self.queue[0] if self.queue else None

    def total(self, seat: int) -> int:
        return sum(e.points for e in self.ledger if e.seat == seat)

    def empty(self) -> int:
        return len(self.rules.board.squares) - len(self.island)


# -- actions -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Pick:
    """Tile selection: the next player took a tile from the holder (``seat`` None: the
    table's button, for whoever's pick it is)."""

    type: ClassVar[str] = "pick"
    seat: int | None = None


@dataclass(frozen=True)
class Place:
    """Put a tile on a square, to be confirmed: ``tile`` is a tile code (tiles.py), ``#N``
    for tile N of the host's catalogue, or ``WATER`` for a flipped tile; ``turn`` quarter
    turns clockwise from how the code (or catalogue) describes it."""

    type: ClassVar[str] = "place"
    seat: int
    square: str
    tile: str
    turn: int = 0


@dataclass(frozen=True)
class Confirm:
    """Play the tile put down (``Place``), scoring what it showed."""

    type: ClassVar[str] = "confirm"
    seat: int


@dataclass(frozen=True)
class Cancel:
    """Take back the tile put down and not yet confirmed."""

    type: ClassVar[str] = "cancel"
    seat: int


@dataclass(frozen=True)
class Discard:
    """Discard a tile from the hand and take another: the turn is lost."""

    type: ClassVar[str] = "discard"
    seat: int


@dataclass(frozen=True)
class Take:
    """Playing out and unable to play: take a tile from the stack; the turn is lost."""

    type: ClassVar[str] = "take"
    seat: int


@dataclass(frozen=True)
class PlayOut:
    """Declare playing out: no more refilling to three tiles."""

    type: ClassVar[str] = "play_out"
    seat: int


@dataclass(frozen=True)
class Refill:
    """The draw phase: the next player has refilled their hand to three (``seat`` None:
    the table's button, for whoever's refill it is)."""

    type: ClassVar[str] = "refill"
    seat: int | None = None


@dataclass(frozen=True)
class BuildCapitol:
    """Build the Capitol on a tile of the kingdom the tile just played completed."""

    type: ClassVar[str] = "build_capitol"
    seat: int
    square: str


@dataclass(frozen=True)
class Protect:
    """Pay to protect the Capitol from the black die until this player's next turn."""

    type: ClassVar[str] = "protect"
    seat: int


@dataclass(frozen=True)
class Attack:
    """The black die showed My-Island: attack this player's unprotected Capitol."""

    type: ClassVar[str] = "attack"
    seat: int
    target: int


@dataclass(frozen=True)
class EndTurn:
    """End the turn (while a Capitol may be built or a set-up tile bought)."""

    type: ClassVar[str] = "end_turn"
    seat: int | None = None


@dataclass(frozen=True)
class Buy:
    """The auction of a set-up tile beside the tile just played: ``buyer`` paid ``price``
    and marks it (the host enters the winning bid)."""

    type: ClassVar[str] = "buy"
    square: str
    buyer: int
    price: int
    seat: None = None


@dataclass(frozen=True)
class Misplay:
    """A tile found misplayed after its turn: it leaves the game and whoever played it
    pays the penalty (the host's action)."""

    type: ClassVar[str] = "misplay"
    square: str
    seat: None = None


@dataclass(frozen=True)
class Finish:
    """End the game now (the host): tiles in hand are paid for as at the island's end."""

    type: ClassVar[str] = "finish"
    seat: None = None


ACTIONS = (
    Pick,
    Place,
    Confirm,
    Cancel,
    Discard,
    Take,
    PlayOut,
    Refill,
    BuildCapitol,
    Protect,
    Attack,
    EndTurn,
    Buy,
    Misplay,
    Finish,
)

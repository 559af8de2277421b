"""Small Islands' state and actions, as frozen dataclasses.

The device never sees a tile: it counts them (the reserve, the navigation stack, the three
face-up tiles, each hand), keeps the ships, Houses and bonus tokens, each player's secret
objective, and the Prestige Points with their reasons. In a solo game, Alexis (the virtual
opponent) is seat-less: his moves come from his exploration cards, drawn at the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

LANDSCAPE = 56
NAVIGATION = 6
ROW = 3
HAND = 2  # tiles held between turns (3 once a face-up tile is taken)
HOUSES = 4
ALEXIS_HOUSES = 8
BONUS = 4
SHIPS = 4
ROUNDS = 4
ALEXIS = -1  # the solo opponent's place in the ledger


@dataclass(frozen=True)
class Entry:
    seat: int  # ALEXIS for the solo opponent
    points: int
    key: str  # rewards, ships, discovery, alexis
    reason: str


@dataclass(frozen=True)
class Objective:
    mission: str
    reward: str


@dataclass(frozen=True)
class State:
    players: int
    advanced: bool = False
    alexis: int | None = None  # the Alexis card, in a solo game
    phase: str = "prepare"  # prepare, explore, reward, ships, over
    round: int = 1
    reserve: int = 0
    nav: int = 0
    row: int = ROW
    hands: tuple[int, ...] = ()
    bonus: tuple[int, ...] = ()
    houses: tuple[int, ...] = ()
    alexis_houses: int = 0
    own_ship: tuple[bool, ...] = ()  # each player's own ship still to land
    grey: int = 0
    landed: tuple[str, ...] = ()  # who landed each round ("1", "2", ..., "Alexis")
    objectives: Mapping[int, Objective] = field(default_factory=dict)  # secret
    later: Mapping[int, Objective] = field(default_factory=dict)  # secret
    ready: frozenset[int] = frozenset()  # chose an objective / finished the reward
    turn: int = 0  # turns taken this round (whose turn follows from it)
    ledger: tuple[Entry, ...] = ()
    discovery: tuple[int, ...] = ()  # Discovery tokens kept (advanced)
    card: int | None = None  # Alexis' exploration card being played
    deck: tuple[int, ...] = ()  # Alexis' exploration stack (his card's counts of each kind)
    drawn: tuple[int, ...] = ()  # drawn from it since it was last shuffled
    alexis_reward: bool = False  # Alexis has had this round's reward
    ended: str | None = None

    @property
    def seats(self) -> int:
        """Turns go round the players, and Alexis after the player in a solo game."""
        return self.players + (1 if self.alexis is not None else 0)

    @property
    def seat(self) -> int:
        """Whose turn it is in the exploration (``players``: Alexis)."""
        return self.turn % self.seats

    def total(self, seat: int) -> int:
        return sum(e.points for e in self.ledger if e.seat == seat)


# -- actions -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Choose:
    """The round's objective, secret: an objective card's number (normal mode) or a mission
    and a reward (advanced), and the one put aside for the next round."""

    type: ClassVar[str] = "choose"
    seat: int
    card: int = 0
    mission: str = ""
    reward: str = ""
    later: int = 0
    later_mission: str = ""
    later_reward: str = ""


@dataclass(frozen=True)
class Explore:
    """Take face-up tile ``take`` (1 to 3), place a tile from the hand, and optionally one
    bonus token ("resource" or "port")."""

    type: ClassVar[str] = "explore"
    seat: int
    take: int
    bonus: str = ""


@dataclass(frozen=True)
class Land:
    """Take a ship ("own", or "grey") and place it: the exploration ends."""

    type: ClassVar[str] = "land"
    seat: int
    ship: str = "own"


@dataclass(frozen=True)
class Island:
    """An island the player puts a House on in the reward phase: its counts (flowers,
    fruits, leaves, temples, ports, tiles, house locations, houses), bonus tokens counted."""

    type: ClassVar[str] = "island"
    seat: int
    counts: tuple[int, int, int, int, int, int, int, int]


@dataclass(frozen=True)
class Rewarded:
    """The player has put all the Houses they will this round."""

    type: ClassVar[str] = "rewarded"
    seat: int


@dataclass(frozen=True)
class Ship:
    """The end: the Ports on the (up to 8) tiles around the player's ships, and the Prestige
    Points on their Discovery tokens (advanced)."""

    type: ClassVar[str] = "ship"
    seat: int
    ports: int
    discovery: int = 0


@dataclass(frozen=True)
class AlexisCard:
    """Alexis' exploration card, drawn at the table (its number): what he does now, or, in
    the reward phase, his mission."""

    type: ClassVar[str] = "alexis_card"
    card: int
    seat: None = None


@dataclass(frozen=True)
class AlexisDeck:
    """Alexis' exploration stack, picked at random at the table once: as many Explore and
    Land cards (by number) as his Alexis card says."""

    type: ClassVar[str] = "alexis_deck"
    cards: tuple[int, ...]
    seat: None = None


@dataclass(frozen=True)
class AlexisPlaced:
    """Where Alexis' tile (or ship) went: placed as the card says, or impossible (a tile
    then leaves the game for 1 PP; a ship: he explores instead)."""

    type: ClassVar[str] = "alexis_placed"
    placed: bool
    seat: None = None


@dataclass(frozen=True)
class AlexisHouses:
    """Alexis' reward: the islands meeting his card's mission get his Houses (their count),
    and the end: the Ports around his grey ships (``ports``, given when the game ends)."""

    type: ClassVar[str] = "alexis_houses"
    islands: int
    ports: int = 0
    seat: None = None


@dataclass(frozen=True)
class Finish:
    """End the game now (the host)."""

    type: ClassVar[str] = "finish"
    seat: None = None


ACTIONS = (
    Choose,
    Explore,
    Land,
    Island,
    Rewarded,
    Ship,
    AlexisDeck,
    AlexisCard,
    AlexisPlaced,
    AlexisHouses,
    Finish,
)

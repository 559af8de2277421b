"""First Giants' state and actions, as frozen dataclasses.

The device knows every card in play: the dig sites' cards are entered as they are dealt
and refilled (what the players see: Family and Size, or a name from the host's deck list),
so each phone can offer only the fossils it may take and the displays the rules allow.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from companion.games.first_giants.museum import Fossil

SITES = 4
SLOTS = 2
MARKERS = 4
START_AMBER = 2
SET_TOKENS = {2: 14, 3: 20, 4: 24, 5: 24}  # in the supply at the start, by players
ALL_SET_TOKENS = 30  # in the box in all (the rulebook's count is lost: see the docs)


@dataclass(frozen=True)
class Rules:
    families: tuple[str, ...]
    news: Mapping[str, int]  # News token ("family:carnivore", "size:medium") -> its points
    deck: Mapping[str, dict] = field(default_factory=dict)  # a host's named cards


@dataclass(frozen=True)
class Entry:
    """Points or amber a card's effect gave (or cost), with its reason."""

    seat: int
    points: int
    amber: int
    reason: str


@dataclass(frozen=True)
class State:
    players: int
    rules: Rules
    phase: str = "deal"  # deal (the dig sites' first cards), play, over
    sites: tuple[tuple[Fossil, ...], ...] = ((),) * SITES
    markers: tuple[tuple[int, ...], ...] = ()  # each seat's sites holding its markers
    amber: tuple[int, ...] = ()
    study: tuple[tuple[Fossil, ...], ...] = ()
    museum: tuple[tuple[tuple[Fossil, ...], ...], ...] = ()  # each seat's sets
    tokens: tuple[tuple[int, ...], ...] = ()  # Set tokens on each set (the supply may run dry)
    supply: int = 0
    box: int = 0
    news: Mapping[str, tuple[int, bool]] = field(default_factory=dict)  # -> (holder, locked)
    ledger: tuple[Entry, ...] = ()
    first: int = 0
    turns: int = 0  # turns played in all
    step: str = ""  # in a turn: choose (take or reclaim), effects (then refill), reclaim
    site: int | None = None  # the site the turn's card came from, to refill
    choices: int = 0  # reclaimed markers still to spend (1 amber or 1 display each)
    ending: bool = False  # the end is triggered: play on to equal turns
    deck_empty: bool = False
    ended: str | None = None

    @property
    def seat(self) -> int:
        return (self.first + self.turns) % self.players

    def points(self, seat: int) -> int:
        return sum(e.points for e in self.ledger if e.seat == seat)


# -- actions -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Deal:
    """A dig site's card, as dealt at the start (the table) or refilled from the deck at the
    end of a turn (the player who took): ``family`` and ``size`` (small, medium, large or
    egg), or ``name`` from the host's deck list."""

    type: ClassVar[str] = "deal"
    site: int
    family: str = ""
    size: str = ""
    name: str = ""
    seat: int | None = None


@dataclass(frozen=True)
class DeckEmpty:
    """The deck is empty: the site stays short (the end is triggered)."""

    type: ClassVar[str] = "deck_empty"
    seat: int | None = None


@dataclass(frozen=True)
class Take:
    """Play a marker on ``site`` and take its card ``slot`` (0 or 1) into the study."""

    type: ClassVar[str] = "take"
    seat: int
    site: int
    slot: int


@dataclass(frozen=True)
class Reclaim:
    """Take every marker back from the dig sites: one choice each (amber or a display)."""

    type: ClassVar[str] = "reclaim"
    seat: int


@dataclass(frozen=True)
class GainAmber:
    """A reclaimed marker's choice: gain 1 amber."""

    type: ClassVar[str] = "gain_amber"
    seat: int


@dataclass(frozen=True)
class Display:
    """Put the study's fossil ``card`` on display in set ``into`` (-1: a new set), paying its
    size in amber: a reclaimed marker's choice, or (``effect``, while the turn's card is
    taken) what a card's effect allows, ``free`` where it costs nothing."""

    type: ClassVar[str] = "display"
    seat: int
    card: int
    into: int = -1
    effect: str = ""
    free: bool = False


@dataclass(frozen=True)
class Effect:
    """What a card's effect gave (or cost): points and amber, with the card's reason."""

    type: ClassVar[str] = "effect"
    seat: int
    reason: str
    points: int = 0
    amber: int = 0


@dataclass(frozen=True)
class Finish:
    """End the game now (the host): the scores as they stand are the result."""

    type: ClassVar[str] = "finish"
    seat: None = None


ACTIONS = (Deal, DeckEmpty, Take, Reclaim, GainAmber, Display, Effect, Finish)

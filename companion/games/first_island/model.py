"""The First Island's pieces: tribes, marked hexes (cells), placements, camp cards."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from companion.games.first_island.hexgrid import Hex, half_edges

# Face value of a tribe die -> tribe, in the rulebook's order (also the score area's columns).
TRIBES: tuple[str, ...] = (
    "scavengers",
    "builders",
    "scholars",
    "matriarchy",
    "healers",
    "scientists",
)
FACE_TRIBE: dict[int, str] = {i + 1: t for i, t in enumerate(TRIBES)}
# The rulebook's example colours; the colour-dotted dice use the same ones.
TRIBE_COLOUR: dict[str, str] = {
    "scavengers": "yellow",
    "builders": "red",
    "scholars": "blue",
    "matriarchy": "purple",
    "healers": "green",
    "scientists": "orange",
}

# A placement is named (q, r, half): half is 0 or 1 in a split hex, 0 for a large one.
PlacementRef = tuple[int, int, int]


def tribe_name(tribe: str) -> str:
    return tribe.capitalize()


@dataclass(frozen=True)
class Cell:
    """A marked hex: one large placement (one tribe) or two halves split on ``axis``."""

    hex: Hex
    tribes: tuple[str, ...]
    axis: int | None = None

    @property
    def large(self) -> bool:
        return len(self.tribes) == 1

    def placements(self) -> list[tuple[PlacementRef, str, tuple[int, ...]]]:
        """(ref, tribe, edge directions) for each placement in this hex."""
        q, r = self.hex
        if self.large:
            return [((q, r, 0), self.tribes[0], tuple(range(6)))]
        assert self.axis is not None
        return [((q, r, half), self.tribes[half], half_edges(self.axis, half)) for half in (0, 1)]

    def to_json(self) -> dict:
        if self.large:
            return {"hex": list(self.hex), "large": self.tribes[0]}
        return {"hex": list(self.hex), "split": self.axis, "halves": list(self.tribes)}


@dataclass(frozen=True)
class CampCard:
    """A camp card: score ``points`` by claiming a camp of ``size`` placements.

    The card's printed shape is the players' to check; the device checks the size.
    """

    deck: str  # "4", "5", "6" or "S"
    size: int
    points: int

    def __str__(self) -> str:
        return f"{self.deck}-deck card ({self.size} placements, {self.points} points)"


@dataclass(frozen=True)
class CardRules:
    """Which camp cards a game uses (from camp_cards.json, by variant)."""

    hand_chain: tuple[str, ...]  # decks a hand card is drawn from, highest first
    table_points: tuple[int, ...]  # the S cards' point values in play
    single_table_card: bool  # one S card only: once scored it is not replaced

    def replacement_deck(self, deck: str) -> str:
        """The next-lower deck in play (the lowest deck stays the lowest)."""
        i = self.hand_chain.index(deck)
        return self.hand_chain[min(i + 1, len(self.hand_chain) - 1)]


@cache
def card_data() -> dict:
    return json.loads(resources.files(__package__).joinpath("camp_cards.json").read_text())


def deck_card(deck: str) -> CampCard:
    """A card of deck 4, 5 or 6: every card in such a deck asks the same size and points."""
    spec = card_data()["decks"][deck]
    return CampCard(deck, spec["size"], spec["points"])


def table_card(points: int) -> CampCard:
    """An S card worth ``points``."""
    for spec in card_data()["decks"]["S"]["cards"]:
        if spec["points"] == points:
            return CampCard("S", spec["size"], points)
    raise ValueError(f"no S card is worth {points} points")


def card_rules(variant: str) -> CardRules:
    spec = card_data()["variants"][variant]
    return CardRules(
        tuple(spec["hand_decks"]), tuple(spec["table_points"]), spec["single_table_card"]
    )

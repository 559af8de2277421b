"""First Giants' fossils and museum sets: what may join a set, its type, when it is complete
and what its Set tokens are worth (docs/first-giants.md).

A fossil is a Family and a Size (small, medium or large) or an egg, which has a Family and
is wild for Size. A set is a row of fossils: one fossil starts it, the second fixes its
type: a Family set (one Family, different Sizes, complete at 3) or a Size set (one Size,
different Families, complete at 5).
"""

from __future__ import annotations

from dataclasses import dataclass

SIZES = ("small", "medium", "large")
EGG = "egg"
COST = {"small": 1, "medium": 2, "large": 3, EGG: 2}  # amber to put a fossil on display
FAMILY_SET, SIZE_SET = "family", "size"
COMPLETE = {FAMILY_SET: 3, SIZE_SET: 5}
TOKEN = (2, 3)  # a Set token's points: the set incomplete, complete


@dataclass(frozen=True)
class Fossil:
    """A card as the players see it: its Family and Size (``Fossil('carnivore', 'small')``;
    an egg's size is "egg"), and its name where a deck list gives one."""

    family: str
    size: str
    name: str = ""

    @property
    def egg(self) -> bool:
        return self.size == EGG

    @property
    def cost(self) -> int:
        return COST[self.size]

    def __str__(self) -> str:
        what = f"{self.family} egg" if self.egg else f"{self.size} {self.family}"
        return f"{self.name} ({what})" if self.name else what


def kind(cards: tuple[Fossil, ...]) -> str | None:
    """The type of a set: None while it holds one card (or two eggs' worth of nothing
    fixed), else Family or Size, from its first two cards."""
    if len(cards) < 2:
        return None
    a, b = cards[0], cards[1]
    return FAMILY_SET if a.family == b.family else SIZE_SET


def size_of(cards: tuple[Fossil, ...]) -> str | None:
    """A Size set's Size: that of its cards that are not eggs (None: eggs only so far)."""
    sizes = {c.size for c in cards if not c.egg}
    return next(iter(sizes)) if sizes else None


def refusal(cards: tuple[Fossil, ...], card: Fossil) -> str | None:
    """Why ``card`` cannot join the set ``cards`` (None: it can), naming the rule."""
    if len(cards) == 1:
        (a,) = cards
        if a.family == card.family:
            if not a.egg and not card.egg and a.size == card.size:
                return f"a {card} cannot join a set of one {a}: same Family and same Size"
            return None  # a Family set
        if a.egg or card.egg or a.size == card.size:
            return None  # a Size set
        return (
            f"a {card} cannot join a set of one {a}: a second card shares the Family "
            "(a Family set) or the Size (a Size set)"
        )
    t = kind(cards)
    if t == FAMILY_SET:
        if card.family != cards[0].family:
            return f"this Family set is of {cards[0].family} fossils, and a {card} is not"
        if len(cards) >= COMPLETE[FAMILY_SET]:
            return "this Family set is complete (3 fossils)"
        sizes = [c.size for c in cards if not c.egg]
        if not card.egg and card.size in sizes:
            return f"this Family set already has a {card.size} fossil"
        return None
    if card.family in {c.family for c in cards}:
        return f"this Size set already has a {card.family} fossil"
    if len(cards) >= COMPLETE[SIZE_SET]:
        return "this Size set is complete (5 fossils)"
    size = size_of(cards)
    if not card.egg and size is not None and card.size != size:
        return f"this Size set is of {size} fossils, and a {card} is not"
    return None


def complete(cards: tuple[Fossil, ...]) -> bool:
    t = kind(cards)
    return t is not None and len(cards) >= COMPLETE[t]


def news_type(cards: tuple[Fossil, ...]) -> str | None:
    """The News token a set of these cards competes for: "family:carnivore", "size:medium"
    (None: one card, or a Size set of eggs only)."""
    t = kind(cards)
    if t == FAMILY_SET:
        return f"family:{cards[0].family}"
    if t == SIZE_SET:
        size = size_of(cards)
        return None if size is None else f"size:{size}"
    return None


def set_points(cards: tuple[Fossil, ...]) -> int:
    """Its Set tokens' points: one token per card after the first, 2 each, 3 once complete."""
    return max(0, len(cards) - 1) * TOKEN[complete(cards)]

"""Small Islands' cards as data: the missions, the rewards and their formulas, the 12
objective cards (a mission and a reward), and the solo opponent's Alexis and exploration
cards. The card pictures are lost: the rewards the rulebook spells out are exact; the other
missions, the pairing of the objective cards and the solo cards are stated defaults
(docs/small-islands.md), numbered as the players number their cards."""

from __future__ import annotations

from collections.abc import Mapping

RESOURCES = ("flowers", "fruits", "leaves")
COUNTS = ("flowers", "fruits", "leaves", "temples", "ports", "tiles", "locations", "houses")

# mission -> (what it says, the least count of each thing an island needs)
MISSIONS: Mapping[str, tuple[str, Mapping[str, int]]] = {
    "flowers": ("at least 2 Flowers", {"flowers": 2}),
    "fruits": ("at least 2 Fruits", {"fruits": 2}),
    "leaves": ("at least 2 Leaves", {"leaves": 2}),
    "temple": ("at least 1 Temple", {"temples": 1}),
    "ports": ("at least 2 Ports", {"ports": 2}),
    "big": ("at least 4 Tiles", {"tiles": 4}),
    "all": ("every Resource", {"flowers": 1, "fruits": 1, "leaves": 1}),
    "any": ("any island", {}),
}

REWARDS: Mapping[str, str] = {
    "flowers": "1 PP per Flower + 2",
    "lowest": "2 PP per Resource of the island's scarcest kind + 2",
    "chosen": "1 PP per Resource of one kind + 2",
    "flat": "6 PP",
    "size": "by the island's size (5 Tiles 4 PP, 6 Tiles 6 PP)",
    "ports": "1 PP per Resource of one kind + 1 per pair of Ports",
    "locations": "1 PP per House location, free or taken",
    "temples": "a Discovery token per island with a Temple (advanced)",
}

# the 12 objective cards of the normal mode, by number: (mission, reward)
OBJECTIVES: Mapping[int, tuple[str, str]] = {
    1: ("flowers", "flowers"), 2: ("fruits", "lowest"), 3: ("leaves", "chosen"),
    4: ("temple", "flat"), 5: ("big", "size"), 6: ("ports", "ports"),
    7: ("all", "locations"), 8: ("any", "lowest"), 9: ("temple", "chosen"),
    10: ("flowers", "size"), 11: ("big", "flat"), 12: ("ports", "locations"),
}  # fmt: skip

# Alexis cards: (difficulty, explore cards, land cards, end points, points per House)
ALEXIS: Mapping[int, tuple[int, int, int, int, int]] = {
    1: (1, 6, 4, 20, 1),
    2: (2, 7, 3, 30, 1),
    3: (3, 8, 2, 40, 1),
}
# exploration cards: (kind explore|land, face-up tile 1-3 taken, directions, mission)
EXPLORATION: Mapping[int, tuple[str, int, str, str]] = {
    1: ("explore", 1, "1 right, 2 down, 3 left", "flowers"),
    2: ("explore", 2, "1 down, 2 left, 3 up", "fruits"),
    3: ("explore", 3, "1 left, 2 up, 3 right", "leaves"),
    4: ("explore", 1, "1 up, 2 right, 3 down", "temple"),
    5: ("explore", 2, "1 right, 2 up, 3 left", "ports"),
    6: ("explore", 3, "1 down, 2 right, 3 up", "big"),
    7: ("explore", 1, "1 left, 2 down, 3 right", "all"),
    8: ("explore", 2, "1 up, 2 left, 3 down", "flowers"),
    9: ("explore", 3, "1 right, 2 down, 3 up", "fruits"),
    10: ("explore", 1, "1 down, 2 left, 3 right", "leaves"),
    11: ("land", 2, "1 right, 2 down, 3 left", "temple"),
    12: ("land", 1, "1 down, 2 right, 3 up", "ports"),
    13: ("land", 3, "1 left, 2 up, 3 down", "big"),
    14: ("land", 2, "1 up, 2 left, 3 right", "all"),
    15: ("land", 1, "1 right, 2 up, 3 left", "flowers"),
}  # fmt: skip


def fulfils(mission: str, counts: Mapping[str, int]) -> bool:
    return all(counts.get(k, 0) >= n for k, n in MISSIONS[mission][1].items())


def size_points(tiles: int) -> int:
    """An island's size reward: 1 PP per Tile after the first up to 5 Tiles (5 Tiles: 4 PP),
    then 1 PP per Tile (6 Tiles: 6 PP), as the rulebook's example gives."""
    return tiles - 1 if tiles <= 5 else tiles


def reward(kind: str, counts: Mapping[str, int]) -> int:
    """The Prestige Points one island with a House scores for the reward ``kind`` (the best
    choice where the player picks a Resource); "temples" scores Discovery tokens instead."""
    res = [counts.get(r, 0) for r in RESOURCES]
    if kind == "flowers":
        return counts.get("flowers", 0) + 2
    if kind == "lowest":
        present = [n for n in res if n]
        return 2 * min(present, default=0) + 2
    if kind == "chosen":
        return max(res) + 2
    if kind == "flat":
        return 6
    if kind == "size":
        return size_points(counts.get("tiles", 0))
    if kind == "ports":
        return max(res) + counts.get("ports", 0) // 2
    if kind == "locations":
        return counts.get("locations", 0)
    if kind == "temples":
        return 0
    raise ValueError(f"unknown reward {kind!r}")

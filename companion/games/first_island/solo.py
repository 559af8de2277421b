"""The solo game's targets, checked criterion by criterion at the end.

Readings: a tribe's points are its base (camps - strays, and -5 without a camp)
plus its request; "at least 4 of each tribe's points from the request" compares
the request alone (for Scholars after the edge penalty). Overrides are refused
outright in hard and impossible games (see ``Options.overrides_allowed``), and
the criterion is reported too.
"""

from __future__ import annotations

from companion.games.first_island.model import TRIBES, tribe_name
from companion.games.first_island.scoring import tribe_points

TARGETS = {
    "casual": {"per_tribe": 3, "cards": 3, "total": None, "no_overrides": False, "request": None},
    "standard": {"per_tribe": 6, "cards": 4, "total": 100, "no_overrides": False, "request": None},
    "hard": {"per_tribe": 8, "cards": 4, "total": 110, "no_overrides": True, "request": None},
    "impossible": {"per_tribe": 8, "cards": 4, "total": 120, "no_overrides": True, "request": 4},
}


def _criterion(name: str, actual: int, target: int, at_most: bool = False) -> dict:
    passed = actual <= target if at_most else actual >= target
    return {
        "criterion": name,
        "actual": actual,
        "target": target,
        "at_most": at_most,
        "passed": passed,
    }


def solo_report(
    difficulty: str, breakdown: dict, cards_completed: int, overrides_used: int
) -> dict:
    """{"difficulty", "passed", "criteria": [{"criterion", "actual", "target", "passed"}]}."""
    t = TARGETS[difficulty]
    criteria = [
        _criterion(f"{tribe_name(tribe)} points", tribe_points(breakdown, tribe), t["per_tribe"])
        for tribe in TRIBES
    ]
    criteria.append(_criterion("camp cards completed", cards_completed, t["cards"]))
    if t["total"] is not None:
        criteria.append(_criterion("total points", breakdown["total"], t["total"]))
    if t["no_overrides"]:
        criteria.append(_criterion("tribe overrides used", overrides_used, 0, at_most=True))
    if t["request"] is not None:
        criteria.extend(
            _criterion(
                f"{tribe_name(tribe)} request points",
                breakdown["tribes"][tribe]["request"],
                t["request"],
            )
            for tribe in TRIBES
        )
    return {
        "difficulty": difficulty,
        "passed": all(c["passed"] for c in criteria),
        "criteria": criteria,
    }

"""Score pad: a score sheet for any game, built on the game contract alone.

Rounds of points per player (in named categories, where the sheet has them), entered on
each player's phone or at the table; the round button moves on; the dice the camera reads
are shown with their sum; totals, chart and export as for every game. Nothing outside this
package knows it is here: the shell finds it, its options and its pages through the
contract (docs/score-pad.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from companion.engine.game import (
    Button,
    DiceRolled,
    DiceSpec,
    GameBase,
    Option,
    Outcome,
    ScoreLine,
    ScoreRow,
    ToAct,
    register,
)
from companion.games.score_pad import pages, rules
from companion.games.score_pad.state import (
    MAX_DICE,
    MAX_PLAYERS,
    MAX_ROUNDS,
    EnterPoints,
    Finish,
    NextRound,
    Sheet,
    State,
)

OPTIONS = (
    Option(
        "categories",
        "Categories",
        "text",
        "",
        help="Scored every round, comma-separated (Roads, Cities, Cards); empty: one line.",
        maximum=300,
    ),
    Option(
        "dice",
        "Dice per roll",
        "int",
        2,
        help="How many dice the camera reads (their sum is shown); 0: no dice.",
        minimum=0,
        maximum=MAX_DICE,
    ),
    Option(
        "rounds",
        "Rounds",
        "int",
        0,
        help="The game ends after this many rounds; 0: when the host ends it.",
        minimum=0,
        maximum=MAX_ROUNDS,
    ),
    Option("low_wins", "Lowest total wins", "bool", False, help="As in golf or Hearts."),
)


class ScorePad(GameBase):
    name = "score-pad"
    title = "Score pad"
    min_players = 1
    max_players = MAX_PLAYERS
    options = OPTIONS
    pages = pages.bp
    actions: ClassVar[dict[str, type]] = {c.type: c for c in (EnterPoints, NextRound, Finish)}

    def setup(self, players: int, options: Mapping[str, Any]) -> State:
        return rules.setup(players, options)

    def apply(self, state: State, action: Any) -> State:
        return rules.apply(state, action)

    def dice(self, state: State) -> DiceSpec | None:
        return rules.dice(state)

    def legal_actions(self, state: State, seat: int | None) -> list:
        """The table's button and end; a seat's points in each category (a few values:
        ``apply`` takes any whole number)."""
        if state.ended:
            return []
        if seat is None:
            return [NextRound(), Finish()]
        return [
            EnterPoints(seat, line, points, seat)
            for line in state.sheet.lines
            for points in (0, 1, 5, 10)
        ]

    def to_act(self, state: State) -> ToAct:
        """The players with a line of this round still blank, and the table (the button)."""
        if state.ended:
            return ToAct()
        blank = tuple(
            p
            for p in range(state.players)
            if any((state.round, p, line) not in state.points for line in state.sheet.lines)
        )
        return ToAct(blank, table=True)

    def button(self, state: State) -> Button | None:
        if state.ended:
            return None
        last = state.sheet.rounds and state.round >= state.sheet.rounds
        return Button(NextRound(), "End the game" if last else "Next round")

    def finish_action(self, state: State) -> Finish:
        return Finish()

    def outcome(self, state: State) -> Outcome | None:
        if not state.ended:
            return None
        totals = tuple(state.total(p) for p in range(state.players))
        best = min(totals) if state.sheet.low_wins else max(totals)
        return Outcome(state.ended, tuple(p for p, t in enumerate(totals) if t == best), totals)

    def describe(self, action: Any) -> str:
        if isinstance(action, DiceRolled):
            return f"Rolled {' '.join(map(str, action.values))} ({sum(action.values)})."
        if isinstance(action, EnterPoints):
            where = "" if action.category == "Points" else f" in {action.category}"
            return f"Entered {action.points} points{where} for player {action.player + 1}."
        if isinstance(action, NextRound):
            return "Moved to the next round."
        if isinstance(action, Finish):
            return "Ended the game."
        return super().describe(action)

    def score_rows(self, state: State) -> list[ScoreRow]:
        """Each player's points per category (a sheet without categories: per round)."""
        rows = []
        for p in range(state.players):
            if state.sheet.categories:
                lines = tuple(
                    ScoreLine(
                        f"category-{i + 1}",
                        name,
                        sum(v for (_, q, c), v in state.points.items() if q == p and c == name),
                    )
                    for i, name in enumerate(state.sheet.categories)
                )
            else:
                lines = tuple(
                    ScoreLine(
                        f"round-{r}",
                        f"Round {r}",
                        sum(v for (s, q, _), v in state.points.items() if q == p and s == r),
                    )
                    for r in range(1, state.round + 1)
                )
            rows.append(ScoreRow(state.total(p), lines, seat=p))
        return rows

    def player_view(self, state: State, seat: int | None) -> dict:
        """The whole sheet (everything on it is public), and the last roll with its sum."""
        view = self.state_to_json(state)
        view["lines"] = list(state.sheet.lines)
        view["sum"] = None if state.roll is None else sum(state.roll)
        view["sheet"] = [
            {
                "round": r,
                "points": [
                    {line: state.points.get((r, p, line)) for line in state.sheet.lines}
                    for p in range(state.players)
                ],
            }
            for r in range(1, state.round + 1)
        ]
        view["totals"] = [state.total(p) for p in range(state.players)]
        return view

    def state_to_json(self, state: State) -> dict:
        sheet = state.sheet
        return {
            "players": state.players,
            "sheet": {
                "categories": list(sheet.categories),
                "dice": sheet.dice,
                "rounds": sheet.rounds,
                "low_wins": sheet.low_wins,
            },
            "round": state.round,
            "points": [[r, p, c, v] for (r, p, c), v in sorted(state.points.items())],
            "roll": None if state.roll is None else list(state.roll),
            "ended": state.ended,
        }

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        sheet = data["sheet"]
        return State(
            players=data["players"],
            sheet=Sheet(
                tuple(sheet["categories"]), sheet["dice"], sheet["rounds"], sheet["low_wins"]
            ),
            round=data["round"],
            points={(r, p, c): v for r, p, c, v in data["points"]},
            roll=None if data["roll"] is None else tuple(data["roll"]),
            ended=data["ended"],
        )


GAME = register(ScorePad())

__all__ = ["GAME", "ScorePad"]

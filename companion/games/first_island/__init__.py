"""The First Island: map the island with 5 tribe dice a turn; camps, requests, camp cards.

The rulebook is shared/rules/first-island.txt; the readings we chose where it is
ambiguous are listed in scoring.py, cards.py and solo.py, and docs/first-island.md.
"""

from __future__ import annotations

import dataclasses
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
    action_to_json,
    register,
)
from companion.games.first_island import pages, rules
from companion.games.first_island.boardfile import board_to_json, parse_board
from companion.games.first_island.jsonform import state_from_json, state_to_json
from companion.games.first_island.legal import legal_actions
from companion.games.first_island.model import (
    FACE_TRIBE,
    TRIBE_COLOUR,
    tribe_name,
)
from companion.games.first_island.scoring import score_board
from companion.games.first_island.shapes import catalogue
from companion.games.first_island.solo import solo_report
from companion.games.first_island.state import (
    DIFFICULTIES,
    Advance,
    DealTableCard,
    Finish,
    KeepRoll,
    Mark,
    Reroll,
    ScoreCampCard,
    SkipCampCard,
    State,
)

OPTIONS = (
    Option(
        "camp_cards",
        "Camp cards",
        "bool",
        True,
        help="Play with the camp cards (the solo game needs them: its targets count them).",
    ),
    Option(
        "variant",
        "Cards",
        "choice",
        "standard",
        (("standard", "standard"), ("easy", "easy (4 deck)")),
        help="The easy cards start every hand from the 4 deck.",
        players=(2, 6),
    ),
    Option(
        "difficulty",
        "Solo difficulty",
        "choice",
        "standard",
        tuple((d, d) for d in DIFFICULTIES),
        help="The solo targets to meet; hard and impossible allow no tribe overrides.",
        players=(1, 1),
    ),
    Option(
        "s_card",
        "S card turned up",
        "choice",
        None,
        ((None, "tap it on the table page"), (4, "4 points"), (5, "5 points"), (6, "6 points")),
        help="The points of the S card turned up at setup, where its deck has several.",
    ),
    Option("map", "Island map", "data", help="A custom island (see docs/first-island.md)."),
)


class FirstIsland(GameBase):
    name = "first-island"
    title = "The First Island"
    min_players = 1
    max_players = 6
    options = OPTIONS
    # the easy cards, and the S card turned up told: the demo's camera rolls at once
    demo_options: ClassVar[dict] = {"variant": "easy", "s_card": 4}
    pages = pages.bp
    actions: ClassVar[dict[str, type]] = {
        cls.type: cls
        for cls in (
            Mark,
            Reroll,
            KeepRoll,
            ScoreCampCard,
            SkipCampCard,
            DealTableCard,
            Advance,
            Finish,
        )
    }
    faces: ClassVar[dict[int, dict]] = {
        v: {"tribe": t, "colour": TRIBE_COLOUR[t]} for v, t in FACE_TRIBE.items()
    }

    def setup(self, players: int, options: Mapping[str, Any]) -> State:
        return rules.setup(players, options)

    def dice(self, state: State) -> DiceSpec | None:
        """The tribe dice whenever a roll would be accepted, and whenever a reroll would
        (``rules.reroll_problem``): a camera reads a reroll's faces as it reads a roll's.
        A reroll's ``showing`` is the roll the players are marking."""
        spec = rules.dice(state)
        if spec is not None or rules.reroll_problem(state) is not None:
            return spec
        return dataclasses.replace(
            rules.TRIBE_DICE,
            purpose="reroll: all 5 dice after the reroll",
            showing=tuple(state.roll or ()),
        )

    def roll_action(self, state: State, roll: DiceRolled) -> Any:
        """A roll read while players mark is the reroll (refused unless one is allowed)."""
        if state.phase == "mark":
            return Reroll(roll.values, roll.source, roll.confidence)
        return roll

    def to_act(self, state: State) -> ToAct:
        """The table rolls (and turns up the S card, and, once everyone has marked, moves to
        the next round or ends the game); while a roll may be rerolled, the roller (and the
        table, whose camera reads the reroll); then the seats still marking."""
        if state.phase == "ended":
            return ToAct()
        if state.phase == "mark":
            if rules.reroll_problem(state) is None:
                return ToAct((state.roller,), table=True)
            return ToAct(tuple(s for s in range(state.players) if not state.seat_done(s)))
        return ToAct(table=True)

    def button(self, state: State) -> Button | None:
        """Once everyone has marked, the button starts the next round; once a third camp
        card is scored, it ends the game (after the others have scored theirs)."""
        if state.ending and state.phase in ("roll", "done"):
            return Button(Advance(), "End the game")
        return Button(Advance(), "Next round") if state.phase == "done" else None

    def finish_action(self, state: State) -> Finish:
        return Finish()

    def describe(self, action: Any) -> str:
        """What ``action`` did, in one sentence (dice by number: the roll is on show)."""
        if isinstance(action, DiceRolled | Reroll):
            what = "Rolled" if isinstance(action, DiceRolled) else "Rerolled"
            names = ", ".join(tribe_name(FACE_TRIBE[v]) for v in action.values)
            return f"{what} {names}."
        if isinstance(action, Mark):
            picks = " and ".join(
                f"die {p}" if isinstance(p, int) else f"a {tribe_name(p)} override"
                for p in action.picks
            )
            return f"Marked hex ({action.hex[0]}, {action.hex[1]}) with {picks}."
        if isinstance(action, ScoreCampCard):
            card = "the camp card in hand" if action.card == "hand" else "the S card"
            return f"Scored {card} with a camp of {len(action.camp)}."
        if isinstance(action, KeepRoll):
            return "Kept the roll (no reroll)."
        if isinstance(action, SkipCampCard):
            return "Skipped the camp card in hand."
        if isinstance(action, DealTableCard):
            return f"Turned up an S card worth {action.points} points."
        if isinstance(action, Advance):
            return "Moved to the next round."
        if isinstance(action, Finish):
            return "Ended the game."
        return super().describe(action)

    def score_rows(self, state: State) -> list[ScoreRow]:
        """Each seat's base and request per tribe, overrides and camp cards (the score area)."""
        rows = []
        for seat, area in enumerate(self.score(state)):
            lines = []
            for tribe, t in area["tribes"].items():
                lines.append(ScoreLine(f"{tribe}_base", f"{tribe_name(tribe)} base", t["base"]))
                lines.append(
                    ScoreLine(f"{tribe}_request", f"{tribe_name(tribe)} request", t["request"])
                )
            lines.append(ScoreLine("overrides", "Overrides", area["overrides"]))
            lines.append(ScoreLine("camp_cards", "Camp cards", area["camp_cards"]))
            rows.append(ScoreRow(area["total"], tuple(lines), seat=seat))
        return rows

    def apply(self, state: State, action: Any) -> State:
        return rules.apply(state, action)

    # -- what can be done now ----------------------------------------------------
    def legal_actions(self, state: State, seat: int | None) -> list:
        """Every legal action of ``seat`` (None: the table), rolls aside (legal.py)."""
        return legal_actions(state, seat)

    def state_to_json(self, state: State) -> dict:
        return state_to_json(state)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return state_from_json(data)

    def outcome(self, state: State) -> Outcome | None:
        if not state.ended:
            return None
        totals = tuple(s["total"] for s in self.score(state))
        if state.solo:
            winners = (0,) if self.score(state)[0]["solo"]["passed"] else ()
        else:
            best = max(totals)
            winners = tuple(i for i, t in enumerate(totals) if t == best)
        return Outcome(state.ended, winners, totals)

    def score(self, state: State) -> list[dict]:
        """Each seat's score area (see scoring.score_board), plus solo targets when solo."""
        out = []
        for board in state.boards:
            b = score_board(
                state.island,
                board.cells,
                board.claimed,
                len(board.overrides),
                [c.points for c in board.scored_cards],
            )
            if state.solo:
                b["solo"] = solo_report(
                    state.options.difficulty or "standard",
                    b,
                    len(board.scored_cards),
                    len(board.overrides),
                )
            out.append(b)
        return out

    def player_view(self, state: State, seat: int | None) -> dict:
        """Everything on the table is public in this game: the state plus each score."""
        view = self.state_to_json(state)
        view["phase"] = state.phase
        view["roll_tribes"] = None if state.roll is None else [FACE_TRIBE[v] for v in state.roll]
        view["scores"] = self.score(state)
        view["seat"] = seat
        view["reroll_allowed"] = rules.reroll_problem(state) is None
        view["roller"] = state.roller
        view["ending"] = state.ending
        view["s_card_due"] = state.s_card_due
        # the cards whose shapes the catalogue holds, by deck: a claim of one names it
        view["card_shapes"] = {deck: sorted(cards) for deck, cards in catalogue().items()}
        view["overrides_allowed"] = state.options.overrides_allowed
        view["max_overrides"] = rules.MAX_OVERRIDES
        view["table_actions"] = [action_to_json(a) for a in self.legal_actions(state, None)]
        view["faces"] = self.faces
        return view

    def score_file(self, data: Any) -> dict:
        """A board file's score: the total, each tribe's lines, overrides and camp cards."""
        breakdown = parse_board(data).score()
        return {
            "total": breakdown["total"],
            "tribes": {
                t: {k: v[k] for k in ("placements", "scorable", "base", "request")}
                for t, v in breakdown["tribes"].items()
            },
            "overrides": breakdown["overrides"],
            "camp_cards": breakdown["camp_cards"],
        }

    def board_file(self, state: State, seat: int) -> dict:
        """Seat's board in the board-file format (``score_file`` reads it)."""
        b = state.boards[seat]
        return board_to_json(
            state.island,
            dict(b.cells),
            b.claimed,
            len(b.overrides),
            [c.points for c in b.scored_cards],
        )


GAME = register(FirstIsland())

__all__ = ["GAME", "FirstIsland"]

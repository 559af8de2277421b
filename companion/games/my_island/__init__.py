"""My Island (2 to 6 players): tiles played on the phones, production points counted by
the device from the island, the commerce dice read by the camera (docs/my-island.md).

The tiles in a hand are never seen: a player describes a tile as they play it (its code or
its number in the host's catalogue), the device checks its edges, shows what it will score
and why, and keeps the production-point ledger.
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
from companion.games.my_island import islandfile, jsonform, pages, rules, views
from companion.games.my_island.setup import setup
from companion.games.my_island.state import (
    ACTIONS,
    DEFAULT_FACES,
    FACE_NAMES,
    LINES,
    EndTurn,
    Finish,
    Pick,
    Refill,
    State,
)

OPTIONS = (
    Option(
        "water_tiles",
        "Water tiles",
        "bool",
        False,
        help="A tile may be flipped and played as water (optional rule E).",
    ),
    Option(
        "ports",
        "Port connections",
        "bool",
        False,
        help="Fishing communities trade across water with the 8 tiles around (rule D).",
    ),
    Option(
        "kingdoms",
        "Kingdoms and Capitols",
        "bool",
        False,
        help="4 road-connected tiles may build a Capitol (optional rule F).",
    ),
    Option(
        "auction",
        "Auction set-up tiles",
        "bool",
        False,
        help="A set-up tile beside a tile played may be bought (optional rule).",
    ),
    Option("mining_value", "Mining die face (PP)", "int", 4, minimum=0, maximum=20),
    Option("logging_value", "Logging die face (PP)", "int", 4, minimum=0, maximum=20),
    Option("farming_value", "Farming die face (PP)", "int", 4, minimum=0, maximum=20),
    Option(
        "faces",
        "Standard d6 faces 1-6",
        "text",
        ", ".join(DEFAULT_FACES),
        maximum=120,
        help="Which commerce face each number of a standard die stands for.",
    ),
    Option(
        "board", "Board", "data", help="A board of your own: rows of # squares (docs/my-island.md)."
    ),
    Option(
        "catalogue",
        "Tile catalogue",
        "data",
        help="Your box's tiles by number (docs/my-island.md); default: an invented one.",
    ),
)


class MyIsland(GameBase):
    name = "my-island"
    title = "My Island"
    min_players = 2
    max_players = 6
    options = OPTIONS
    demo_options: ClassVar[dict[str, Any]] = {"ports": True, "water_tiles": True}
    demo_die = FACE_NAMES  # the commerce dice, drawn and taught for the demo's camera
    pages = pages.bp
    actions: ClassVar[dict[str, type]] = {c.type: c for c in ACTIONS}

    def setup(self, players: int, options: Mapping[str, Any]) -> State:
        return setup(players, options)

    def apply(self, state: State, action: Any) -> State:
        return rules.apply(state, action)

    def legal_actions(self, state: State, seat: int | None) -> list:
        return views.legal_actions(state, seat)

    def dice(self, state: State) -> DiceSpec | None:
        return rules.dice(state)

    def to_act(self, state: State) -> ToAct:
        if state.ended:
            return ToAct()
        who = rules.actor(state)
        if state.phase == "play" and state.step in ("white", "black"):
            thrower = state.seat if state.step == "white" else state.black[0]
            return ToAct((thrower,), table=True)
        table = state.phase in ("select", "draw") or state.step == "after"
        return ToAct(() if who is None else (who,), table=table)

    def button(self, state: State) -> Button | None:
        if state.ended:
            return None
        if state.phase == "select":
            return Button(Pick(), f"Player {state.seat + 1} took a tile")  # type: ignore[operator]
        if state.phase == "draw":
            return Button(Refill(), f"Player {state.seat + 1} refilled")  # type: ignore[operator]
        if state.phase == "play" and state.step == "after":
            return Button(EndTurn(), "End the turn")
        return None

    def finish_action(self, state: State) -> Finish | None:
        return None if state.ended else Finish()

    def outcome(self, state: State) -> Outcome | None:
        if not state.ended:
            return None
        totals = tuple(state.total(s) for s in range(state.players))
        best = max(totals)
        return Outcome(state.ended, tuple(s for s, t in enumerate(totals) if t == best), totals)

    def round_of(self, state: State) -> int | None:
        return state.round or None

    def describe(self, action: Any) -> str:
        if isinstance(action, DiceRolled):
            return f"Commerce dice read: {' '.join(map(str, action.values))}."
        return views.describe(action)

    def score_rows(self, state: State) -> list[ScoreRow]:
        """Each player's production points by what earned (or cost) them."""
        rows = []
        for s in range(state.players):
            lines = tuple(
                ScoreLine(
                    key, label, sum(e.points for e in state.ledger if e.seat == s and e.key == key)
                )
                for key, label in LINES
            )
            rows.append(ScoreRow(state.total(s), lines, seat=s))
        return rows

    def player_view(self, state: State, seat: int | None) -> dict:
        return views.player_view(state, seat)

    def state_to_json(self, state: State) -> dict:
        return jsonform.to_json(state)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return jsonform.from_json(data)

    def board_file(self, state: State, seat: int) -> dict:
        """The whole island (every player's tiles: the file scores them all)."""
        return islandfile.write(state)

    def score_file(self, data: Any) -> dict:
        return islandfile.score(data)


GAME = register(MyIsland())

__all__ = ["GAME", "MyIsland"]

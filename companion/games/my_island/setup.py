"""My Island's setup: the options read and checked, the tile catalogue, the selection order."""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from typing import Any

from companion.errors import IllegalAction
from companion.games.my_island.board import NUMBER, Board
from companion.games.my_island.state import DEFAULT_FACES, FACE_NAMES, Rules, State
from companion.games.my_island.tiles import Tile

MAX_CATALOGUE = 200


def example_catalogue() -> dict[int, str]:
    """The catalogue the package ships: invented tiles, numbered (tiles.json says so)."""
    data = json.loads(resources.files(__package__).joinpath("tiles.json").read_text())
    return {int(k): v for k, v in data["tiles"].items()}


def read_catalogue(data: Any) -> dict[int, str]:
    """A host's tile catalogue: ``{"tiles": {"1": "12:LLLL:fr-a", ...}}`` (or the mapping
    alone); IllegalAction naming the bad entry."""

    def bad(why: str) -> IllegalAction:
        return IllegalAction(
            f"option 'catalogue': {why} (a catalogue maps tile numbers to tile codes: "
            '{"tiles": {"1": "12:LLLL:fr-a"}}; docs/my-island.md)',
            code="setup/bad_option",
        )

    if isinstance(data, Mapping) and "tiles" in data:
        data = data["tiles"]
    if not isinstance(data, Mapping) or not data:
        raise bad("it must map tile numbers to tile codes")
    if len(data) > MAX_CATALOGUE:
        raise bad(f"it has {len(data)} tiles; at most {MAX_CATALOGUE}")
    out = {}
    for key, code in data.items():
        if not (isinstance(key, str) and NUMBER.match(key) and 1 <= int(key) <= 999):
            raise bad(f"tile number {key!r} is not a number from 1 to 999")
        try:
            Tile.from_code(code)
        except IllegalAction as exc:
            raise bad(f"tile {key}: {exc}") from None
        out[int(key)] = code
    return out


def read_faces(text: str) -> tuple[str, ...]:
    """The commerce die's faces 1 to 6 as a standard d6 stands in for them ("mining,
    fishing, logging, farming, farming, my-island")."""
    faces = tuple(part.strip().lower() for part in text.split(","))
    if len(faces) != 6 or any(f not in FACE_NAMES for f in faces):
        raise IllegalAction(
            f"option 'faces' must name the six faces of a d6 in order, each one of "
            f"{', '.join(FACE_NAMES)}; not {text!r}",
            code="setup/bad_option",
        )
    return faces


def selection_order(players: int) -> tuple[int, ...]:
    """Who takes a tile when: four picks each, each pass starting with the next player; two
    players pick five each; in a 3-player game the third player picks a fifth."""
    passes = 5 if players == 2 else 4
    order = [(k + i) % players for k in range(passes) for i in range(players)]
    if players == 3:
        order.append(2)
    return tuple(order)


def setup_order(players: int) -> tuple[int, ...]:
    """Who plays each set-up tile: everyone one, in turn; two players two each; in a
    3-player game the third player two."""
    if players == 2:
        return (0, 1, 0, 1)
    if players == 3:
        return (0, 1, 2, 2)
    return tuple(range(players))


def setup(players: int, options: Mapping[str, Any]) -> State:
    """The game before the first tile is taken (options already checked against the schema)."""
    board = options.get("board")
    rules = Rules(
        board=Board.standard(players) if board is None else Board.custom(board),
        water_tiles=options.get("water_tiles", False),
        ports=options.get("ports", False),
        kingdoms=options.get("kingdoms", False),
        auction=options.get("auction", False),
        faces=read_faces(options.get("faces", ", ".join(DEFAULT_FACES))),
        values={f: options.get(f"{f}_value", 4) for f in ("mining", "logging", "farming")},
        catalogue=(
            example_catalogue()
            if options.get("catalogue") is None
            else read_catalogue(options["catalogue"])
        ),
    )
    return State(
        players=players,
        rules=rules,
        queue=selection_order(players),
        hands=(0,) * players,
    )

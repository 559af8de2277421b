"""My Island's game board: the squares tiles are played on, per player count.

The rulebook's board pictures are lost. Its board is built from 4, 5 or 6 pieces (for 4, 5
and 6 players; 2 and 3 players use the 4-player board) and its box holds 72 tiles for a
4-player game, so each piece is taken as 4 by 4 squares: 4 pieces make 8 by 8 squares, a
fifth piece joins the middle of the east side, a sixth completes 8 by 12 (``BOARDS``; a
host may play on a board of their own, the ``board`` option). A square is named by its
column letter and row number, "A1" at the north-west corner.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from companion.errors import IllegalAction
from companion.games.my_island.tiles import STEP

BOARDS = {
    4: ("########",) * 8,
    5: ("########....",) * 2 + ("############",) * 4 + ("########....",) * 2,
    6: ("############",) * 8,
}
# Playing out may begin once this few squares are empty (the rulebook's table, by players)
PLAY_OUT = {2: 9, 3: 9, 4: 12, 5: 15, 6: 18}
MAX_SIDE = 16
MIN_SQUARES = 6

Square = tuple[int, int]  # (row, column), 0-based
NUMBER = re.compile(r"^[0-9]{1,3}$")  # a row or tile number as typed: ASCII digits only


def square_name(sq: Square) -> str:
    return f"{chr(ord('A') + sq[1])}{sq[0] + 1}"


@dataclass(frozen=True)
class Board:
    """The squares of a board, as rows of ``#`` (a square) and ``.`` (none)."""

    rows: tuple[str, ...]

    @classmethod
    def standard(cls, players: int) -> Board:
        return cls(BOARDS[max(4, players)])

    @classmethod
    def custom(cls, rows: object) -> Board:
        """A host's own board; IllegalAction saying what is wrong with a bad one."""

        def bad(why: str) -> IllegalAction:
            return IllegalAction(
                f"option 'board': {why} (a board is a list of rows such as "
                '["####", "####", "####"], # a square, . none)',
                code="setup/bad_option",
            )

        if not isinstance(rows, Sequence) or isinstance(rows, str) or not rows:
            raise bad("it must be a list of rows")
        if len(rows) > MAX_SIDE:
            raise bad(f"it has {len(rows)} rows; at most {MAX_SIDE}")
        for i, row in enumerate(rows, start=1):
            if not isinstance(row, str) or set(row) - {"#", "."}:
                raise bad(f"row {i} ({row!r}) may hold only # and .")
            if len(row) > MAX_SIDE:
                raise bad(f"row {i} is {len(row)} squares wide; at most {MAX_SIDE}")
        board = cls(tuple(rows))
        if len(board.squares) < MIN_SQUARES:
            raise bad(f"it has {len(board.squares)} squares; at least {MIN_SQUARES}")
        return board

    @property
    def squares(self) -> frozenset[Square]:
        return frozenset(
            (r, c) for r, row in enumerate(self.rows) for c, x in enumerate(row) if x == "#"
        )

    def neighbour(self, sq: Square, d: int) -> Square:
        dr, dc = STEP[d]
        return sq[0] + dr, sq[1] + dc

    def around(self, sq: Square) -> Iterator[Square]:
        """The up to 8 squares surrounding ``sq`` (sides and corners) on the board."""
        squares = self.squares
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                other = (sq[0] + dr, sq[1] + dc)
                if (dr or dc) and other in squares:
                    yield other

    def on_edge(self, sq: Square) -> bool:
        """Is ``sq`` on the board's outer edge (a side with no square beyond it)?"""
        squares = self.squares
        return any(self.neighbour(sq, d) not in squares for d in range(4))

    def parse(self, name: object) -> Square:
        """The square called ``name`` ("C4"); IllegalAction if the board has none such."""
        if isinstance(name, str) and 2 <= len(name) <= 3 and name[0].isalpha():
            col, row = ord(name[0].upper()) - ord("A"), name[1:]
            if NUMBER.match(row) and (int(row) - 1, col) in self.squares:
                return int(row) - 1, col
        raise IllegalAction(
            f"{name!r} is not a square of this board: name it by column letter and row, "
            f"A1 to {square_name(max(self.squares, key=lambda s: (s[1], s[0])))}",
            code="island/bad_square",
        )

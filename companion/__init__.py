"""Table Companion: reads the dice at a board-game table and keeps the score."""

__version__ = "0.1.0"

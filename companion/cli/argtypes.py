"""argparse types for the ``companion`` command's options: a bad value is named with the
range it must be in."""

from __future__ import annotations

import argparse


def whole(low: int, high: int | None = None):
    """An argparse type: a whole number from ``low`` (to ``high``), else a clear error."""

    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            n = low - 1
        if n < low or (high is not None and n > high):
            span = f"a number from {low} to {high}" if high else f"a whole number from {low} up"
            raise argparse.ArgumentTypeError(f"must be {span}, not {text!r}")
        return n

    return parse

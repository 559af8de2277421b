"""docs/commands.md, the command reference, names every subcommand and every option the
command line takes, so the page cannot fall behind ``companion --help``."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.cli.main import build_parser

DOC = Path(__file__).parents[2] / "docs" / "commands.md"


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    (sub,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def test_every_subcommand_and_option_is_in_the_command_reference():
    text = DOC.read_text()
    parser = build_parser()
    missing = [o for a in parser._actions for o in a.option_strings if o not in text]
    for name, sub in _subcommands(parser).items():
        if f"companion {name}" not in text:
            missing.append(f"companion {name}")
        missing += [
            f"companion {name} {o}"
            for a in sub._actions
            for o in a.option_strings
            if o not in ("-h", "--help") and o not in text
        ]
    assert missing == [], f"docs/commands.md does not mention: {missing}"

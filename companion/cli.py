"""The ``companion`` command.

Exit status: 0 on success, 2 for bad input (a malformed file, a bad option),
1 for anything else that went wrong.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from companion import __version__
from companion.errors import CompanionError, StorageError


def _cmd_score(args: argparse.Namespace) -> int:
    from companion.engine.game import get_game

    game = get_game(args.game)
    if game.name != "first-island":
        raise CompanionError(f"scoring a board file is only defined for first-island, "
                             f"not {args.game}", code="board/unsupported")
    from companion.games.first_island.boardfile import parse_board

    try:
        data = json.loads(Path(args.board).read_text())
    except FileNotFoundError:
        raise CompanionError(f"no board file at {args.board}", code="board/missing") from None
    except json.JSONDecodeError as exc:
        raise CompanionError(f"{args.board} is not valid JSON: {exc}",
                             code="board/invalid") from None
    breakdown = parse_board(data).score()
    out = {
        "total": breakdown["total"],
        "tribes": {t: {k: v[k] for k in ("placements", "scorable", "base", "request")}
                   for t, v in breakdown["tribes"].items()},
        "overrides": breakdown["overrides"],
        "camp_cards": breakdown["camp_cards"],
    }
    print(json.dumps(out, indent=2 if args.pretty else None))
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    from companion.serve import serve

    cfg = args.cfg
    data_dir = Path(args.data_dir or cfg.storage.data_dir).expanduser()
    database = data_dir / ("demo.db" if args.demo else "games.db")
    serve(args.host or cfg.web.host, args.port or cfg.web.port, database, demo=args.demo,
          mdns=cfg.web.mdns and not args.no_mdns)
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from companion.bench import run

    return run(args.what, args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    parser.add_argument("--config", help="TOML configuration file (see deploy/config.example.toml)")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("score", help="score a finished board file and print the breakdown as JSON")
    p.add_argument("game", help="the game, e.g. first-island")
    p.add_argument("board", help="the board file (JSON)")
    p.add_argument("--pretty", action="store_true", help="indent the JSON")
    p.set_defaults(func=_cmd_score, needs_config=False)

    p = sub.add_parser("serve", help="serve the scoreboard to the phones and the table view")
    p.add_argument("--demo", action="store_true",
                   help="start on the embedded demo: a First Island game ready to play")
    p.add_argument("--host", help="address to listen on (default from config: 0.0.0.0)")
    p.add_argument("--port", type=int, help="port (default from config: 8000)")
    p.add_argument("--data-dir", help="where the games database lives (default from config)")
    p.add_argument("--no-mdns", action="store_true", help="do not advertise over mDNS")
    p.set_defaults(func=_cmd_serve)

    p = sub.add_parser("bench", help="measure speed (engine, web)")
    p.add_argument("what", choices=["engine", "web"], help="what to measure")
    p.add_argument("--repeat", type=int, default=2000, help="engine: timed repetitions")
    p.add_argument("--clients", type=int, default=12, help="web: live pages connected")
    p.add_argument("--actions", type=int, default=200, help="web: actions sent")
    p.set_defaults(func=_cmd_bench, needs_config=False)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    try:
        if getattr(args, "needs_config", True):
            from companion import config

            args.cfg = config.load(args.config)
            logging.getLogger().setLevel(args.cfg.log.level.upper())
        return args.func(args)
    except CompanionError as exc:
        print(f"companion: {exc.message}", file=sys.stderr)
        return 1 if isinstance(exc, StorageError) else 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())

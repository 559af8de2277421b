"""The ``companion`` command.

Exit status: 0 on success, 2 for bad input (a malformed file, a bad option),
1 for anything else that went wrong.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from pathlib import Path

from companion import __version__
from companion.cli import dice as cli_dice
from companion.cli.argtypes import whole
from companion.cli.bench.options import add_bench
from companion.errors import CompanionError, StorageError
from companion.vision import CAMERA_SPECS


def _cmd_score(args: argparse.Namespace) -> int:
    from companion.engine.game import get_game

    game = get_game(args.game)
    from companion.textfile import read_text

    text = read_text(
        Path(args.board),
        "board file",
        lambda message, gone: CompanionError(
            message, code="board/missing" if gone else "board/invalid"
        ),
        missing=f"no board file at {args.board}",
        folder=f"{args.board} is a folder; give the board file (JSON) in it",
    )
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CompanionError(
            f"{args.board} is not valid JSON: {exc}", code="board/invalid"
        ) from None
    except RecursionError:  # Python's parser gives up on lists nested thousands deep
        raise CompanionError(
            f"{args.board} nests its lists too deeply to be a board file", code="board/invalid"
        ) from None
    out = game.score_file(data)
    print(json.dumps(out, indent=2 if args.pretty else None))
    return 0


# waitress would take --port 99999 as 34463; --dice 0 would never be seen
_port, _count = whole(1, 65535), whole(1)


def _cmd_serve(args: argparse.Namespace) -> int:
    from companion.device.serve import serve

    cfg = args.cfg
    data_dir = Path(args.data_dir or cfg.storage.data_dir).expanduser()
    database = data_dir / ("games.db" if args.demo is None else "demo.db")
    if args.demo is not None:
        from companion.engine.game import get_game

        get_game(args.demo)  # an unknown game is named before anything starts
    custom, die_problem = None, ""
    if args.demo is None:
        try:
            custom = cli_dice.custom_die(args)
        except CompanionError as exc:  # the games go on; the table page says what to do
            die_problem = str(exc)
    serve(
        args.host or cfg.web.host,
        args.port or cfg.web.port,
        database,
        demo=args.demo,
        mdns=cfg.web.mdns and not args.no_mdns,
        camera=args.camera or (cfg.camera.source if args.demo is None else "demo"),
        min_confidence=cfg.vision.min_confidence or None,
        threads=cfg.vision.threads,
        custom=custom,
        die_problem=die_problem,
        gpio=cfg.gpio,
        view=cfg.camera.view,
    )
    return 0


def _cmd_doctor(args: argparse.Namespace) -> int:
    from companion.cli import doctor

    checks = doctor.run(args.cfg, camera=args.camera)
    print(f"config: {args.cfg.source}")
    for c in checks:
        print(c.line())
    failed = [c.name for c in checks if c.level == "FAIL"]
    print("all checks passed" if not failed else f"failed: {', '.join(failed)}")
    return 1 if failed else 0


VIEW_HELP = (
    "where the camera looked from: slanted (a photo taken at a slant, held upright) or down "
    "(straight down over the table, as the device's camera)"
)


def _cmd_games(args: argparse.Namespace) -> int:
    from companion.engine.game import all_games

    games = [
        {"game": g.name, "title": g.title, "players": [g.min_players, g.max_players]}
        for g in all_games()
    ]
    if args.json:
        print(json.dumps(games))
    else:
        for g in games:
            low, high = g["players"]
            players = f"{low} player" if low == high == 1 else f"{low} to {high} players"
            print(f"{g['game']}: {g['title']}, {players}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Table Companion: reads the dice on the table, keeps each game's score "
        "and serves the live scoreboard to the players' phones.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    parser.add_argument("--config", help="TOML configuration file (see deploy/config.example.toml)")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_games(sub)
    _add_score(sub)
    _add_serve(sub)
    _add_read(sub)
    _add_watch(sub)
    _add_teach(sub)
    _add_doctor(sub)
    add_bench(sub)
    return parser


def _add_games(sub) -> None:
    """``companion games``: the games this device plays."""
    p = sub.add_parser("games", help="list the games this device plays, with their player counts")
    p.add_argument("--json", action="store_true", help="one JSON list")
    p.set_defaults(func=_cmd_games)


def _add_score(sub) -> None:
    """``companion score``: a finished board's score."""
    p = sub.add_parser("score", help="score a finished board file and print the breakdown as JSON")
    p.add_argument("game", help="the game's name (companion games lists them)")
    p.add_argument("board", help="the board file (JSON)")
    p.add_argument("--pretty", action="store_true", help="indent the JSON")
    p.set_defaults(func=_cmd_score, needs_config=False)


def _add_serve(sub) -> None:
    """``companion serve``: the scoreboard, the table page and the device."""
    from companion.device.serve import DEMO_GAME

    p = sub.add_parser("serve", help="serve the scoreboard to the phones and the table view")
    p.add_argument(
        "--demo",
        nargs="?",
        const=DEMO_GAME,
        metavar="GAME",
        help=f"start on the embedded demo: a game ready to play (default {DEMO_GAME}), its "
        "rolls read from replayed camera frames",
    )
    p.add_argument("--host", help="address to listen on (default from config: 0.0.0.0)")
    p.add_argument("--port", type=_port, help="port, 1 to 65535 (default from config: 8000)")
    p.add_argument("--data-dir", help="where the games database lives (default from config)")
    p.add_argument("--no-mdns", action="store_true", help="do not advertise over mDNS")
    p.add_argument(
        "--camera",
        help=f"{CAMERA_SPECS}, or none (default from config; with --demo the demo's replayed "
        "rolls)",
    )
    p.set_defaults(func=_cmd_serve, die=None)


def _add_read(sub) -> None:
    """``companion read``: the dice in still pictures."""
    p = sub.add_parser("read", help="read the dice in still images")
    p.add_argument(
        "images", nargs="+", metavar="IMAGE", help="JPEG or PNG files, or folders of them"
    )
    p.add_argument("--json", action="store_true", help="one JSON object per image and line")
    p.add_argument("--annotate", metavar="DIR", help="write each image with the dice drawn on it")
    p.add_argument("--die", help="a custom die taught with `companion teach` (default: config)")
    p.add_argument("--view", help=VIEW_HELP + " (default: slanted)")
    p.set_defaults(func=cli_dice.cmd_read, view="slanted")


def _add_watch(sub) -> None:
    """``companion watch``: roll events from a camera."""
    p = sub.add_parser("watch", help="print roll events from a live or replayed camera")
    p.add_argument(
        "--camera",
        help=f"{CAMERA_SPECS} (default: config)",
    )
    p.add_argument("--dice", type=_count, help="how many dice a roll has (say so when it differs)")
    p.add_argument("--frames", type=_count, help="stop after this many frames")
    p.add_argument("--die", help="a custom die taught with `companion teach` (default: config)")
    p.add_argument("--view", help=VIEW_HELP + " (default: [camera] view)")
    p.set_defaults(func=cli_dice.cmd_watch)


def _add_teach(sub) -> None:
    """``companion teach``: a custom die from shows of each face."""
    p = sub.add_parser(
        "teach",
        help="learn a custom die from a few shows of each face (--standard: the table's own "
        "pip dice)",
    )
    p.add_argument("name", help="a name for the die, e.g. commerce")
    p.add_argument("--shows", metavar="DIR", help="DIR/<face>/*.jpg: pictures of each face up")
    p.add_argument("--faces", help="with the camera: the face names, comma-separated")
    p.add_argument(
        "--standard",
        action="store_true",
        help="the table's own pip dice: each face 1 to 6 shown with all the set's dice "
        "(--shows DIR/1 ... DIR/6), read better than the general model reads them",
    )
    p.add_argument("--camera", help="camera to show the faces to (default: config)")
    p.add_argument(
        "--view", help=VIEW_HELP + " (default: slanted with --shows, else [camera] view)"
    )
    p.set_defaults(func=cli_dice.cmd_teach)


def _add_doctor(sub) -> None:
    """``companion doctor``: what is wrong and what to do."""
    p = sub.add_parser(
        "doctor", help="check camera, light, pins, models, storage, port, disk and clock"
    )
    p.add_argument("--camera", help="check this camera instead of the configured one")
    p.set_defaults(func=_cmd_doctor)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    try:
        if getattr(args, "needs_config", True):
            from companion.device import config

            args.cfg = config.load(args.config)
            if not args.verbose:  # -v asks for debug messages whatever the config says
                logging.getLogger().setLevel(args.cfg.log.level.upper())
        return args.func(args)
    except CompanionError as exc:
        print(f"companion: {exc.message}", file=sys.stderr)
        return 1 if isinstance(exc, StorageError) else 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader of our output went away (`companion watch | head -1`): stop quietly, as
        # the Python docs advise, with stdout pointed at nothing so the exit's flush is silent
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())

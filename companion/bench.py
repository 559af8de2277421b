"""``companion bench engine``: how long the engine takes for one action and one score.

Figures are medians over many repetitions on this machine, printed as JSON, with
the targets from the issue beside them (under 2 ms an action, under 5 ms a full
board score) so a Pi Zero 2 keeps up.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from pathlib import Path

from companion.engine.game import DiceRolled, get_game
from companion.engine.session import Session
from companion.engine.store import EventStore
from companion.games.first_island.scoring import score_board
from companion.games.first_island.state import Advance, Mark
from companion.machine import machine


def _median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def _full_game_state(game, players: int = 4):
    """A 4-player First Island game played to the last round, deterministically."""
    state = game.setup(players, {"camp_cards": False})
    hexes = sorted(state.island.hexes)
    faces = [(1, 2, 3, 4, 5), (6, 5, 4, 3, 2), (2, 2, 3, 3, 1)]
    i = 0
    while len(hexes) - len(state.boards[0].cells) > 2:
        state = game.apply(state, DiceRolled(faces[i % 3]))
        for seat in range(players):
            for n, picks in enumerate(((1, 2), (3, 4))):
                state = game.apply(state, Mark(seat, hexes[2 * i + n], picks, seat % 3))
        state = game.apply(state, Advance())
        i += 1
    return state, hexes[2 * i :]


def bench_engine(repeat: int) -> dict:
    game = get_game("first-island")
    state, free = _full_game_state(game)
    rolled = game.apply(state, DiceRolled((1, 2, 3, 4, 5)))
    mark = Mark(0, free[0], (1, 2), 0)
    full = rolled
    for seat in range(full.players):
        for n, h in enumerate(free):
            full = game.apply(full, Mark(seat, h, ((1, 2), (3, 4))[n], 1))
    assert full.board_full(0) and full.ended == "the island is full"
    one = full.boards[0]

    with tempfile.TemporaryDirectory() as tmp:
        store = EventStore(Path(tmp) / "bench.db")
        session = Session.create(store, "first-island", 2, {})
        session.act(DiceRolled((1, 2, 3, 4, 5)))

        def act_and_undo():
            session.act(Mark(0, (0, 0), (1, 2), 0))
            session.undo()

        act_undo = _median_ms(act_and_undo, max(50, repeat // 20))
        store.close()
    return {
        "apply_one_action_ms": round(_median_ms(lambda: game.apply(rolled, mark), repeat), 4),
        "score_full_board_ms": round(
            _median_ms(
                lambda: score_board(full.island, one.cells, one.claimed, len(one.overrides), ()),
                repeat,
            ),
            4,
        ),
        "score_all_4_players_ms": round(_median_ms(lambda: game.score(full), repeat), 4),
        "session_act_plus_undo_on_disk_ms": round(act_undo, 3),
        "targets": {"apply_one_action_ms": 2.0, "score_full_board_ms": 5.0},
        "repeat": repeat,
        "note": "apply = validate + reduce; score = one full 36-hex board (and all 4 boards "
        "of the game); session figure includes two SQLite commits with "
        "synchronous=FULL (an action and its undo)",
    }


def _report(found: dict) -> None:
    """Prints a benchmark's figures as JSON, with the machine they were measured on."""
    print(json.dumps({**found, "machine": machine()}, indent=2))


def run(what: str, args) -> int:
    """Run the benchmark ``what`` with the command line's ``args`` and print its report."""
    if what == "engine":
        _report(bench_engine(args.repeat))
    elif what == "web":
        from companion.bench_web import bench_web

        _report(bench_web(args.clients, args.actions))
    elif what == "watch":
        from companion.bench_watch import bench_watch

        _report(bench_watch(threads=args.threads))
    elif what == "threads":
        from companion.bench_threads import bench_threads

        _report(bench_threads())
    elif what == "numerals":
        _report(_numerals(args))
    elif what == "settle":
        _report(_settle(args))
    elif what == "vision":
        _report(_vision(args))
    return 0


def _numerals(args) -> dict:
    from companion.bench_numerals import bench_numerals
    from companion.errors import CompanionError
    from companion.vision.fonts import NumeralFonts, font_list

    if not args.fonts:
        raise CompanionError(
            "pass --fonts with a list of font files, e.g. --fonts models/recipe/heldout-fonts.txt",
            code="bench/no-fonts",
        )
    try:  # every file is loaded here, so a bad one is named before any reading
        fonts = NumeralFonts(font_list(Path(args.fonts)), share=1.0)
    except (OSError, RuntimeError, ValueError) as e:
        raise CompanionError(str(e), code="bench/bad-fonts") from e
    models = Path(args.models) if args.models else None
    return bench_numerals(fonts, models)


def _photos(args) -> tuple[Path, Path]:
    """The labelled photos' folder (--data, which vision and settle need) and the models."""
    from companion.errors import CompanionError
    from companion.vision.reader import model_dir

    if not args.data:
        raise CompanionError(
            "pass --data with the folder of labelled dice photos, e.g. --data ../shared/data/dice",
            code="vision/no-data",
        )
    return Path(args.data), Path(args.models) if args.models else model_dir()


def _settle(args) -> dict:
    from companion.bench_settle import bench_settle
    from companion.errors import CompanionError

    data, models = _photos(args)
    if args.frames < 1:
        raise CompanionError(
            f"--frames {args.frames}: a rest needs at least one still frame "
            "(the Settler reads it after 5)",
            code="bench/bad-frames",
        )
    return bench_settle(data, args.split, args.frames, args.seed, models)


def _vision(args) -> dict:
    from companion import bench_vision
    from companion.errors import CompanionError
    from companion.vision.evaluate import calibrate
    from companion.vision.reader import DiceReader

    data, models = _photos(args)
    if args.enlarge is not None:
        if not 1 < args.enlarge <= 10 or args.pi_streams or args.against or args.calibrate:
            raise CompanionError(
                f"--enlarge {args.enlarge}: give a factor over 1 and at most 10 (6 makes "
                "the 640 px photos the size of a phone's, 3840 px), and without "
                "--pi-streams, --against or --calibrate",
                code="bench/bad-enlarge",
            )
        return bench_vision.bench_enlarged(data, args.split, models, args.enlarge)
    if args.against:
        if args.split == "heldout":
            raise CompanionError(
                "--against compares two models folders to choose between them: do it "
                "on --split dev (the held-out split is read once, to report the models "
                "chosen)",
                code="bench/heldout-compare",
            )
        how = bench_vision.compare_streams if args.pi_streams else bench_vision.compare
        return how(data, args.split, models, Path(args.against))
    if args.pi_streams:
        return bench_vision.bench_streams(data, args.split, models)
    if args.calibrate:
        return calibrate(DiceReader(models), data, models / "dice.json")
    return bench_vision.bench_vision(data, args.split, models)

"""The benchmark runs (its figures are reported by `make bench`, never asserted here)."""

import pytest

from companion.cli.bench.engine import bench_engine
from companion.engine.game import all_games


def test_the_engine_benchmark_runs_and_reports_each_figure():
    out = bench_engine(repeat=5)
    assert set(out["games"]) == {g.name for g in all_games()}  # every game, each measured
    for figures in out["games"].values():
        assert figures["actions_played"] > 0
        for key in ("apply_one_action_ms", "score_all_players_ms"):
            assert figures[key] > 0
        assert figures["session_act_plus_undo_on_disk_ms"] > 0


def test_every_live_page_receives_every_update():
    from companion.cli.bench.web import bench_web

    out = bench_web(clients=4, actions=6)
    assert (out["deliveries"], out["missing"]) == (24, 0)
    assert out["latency_ms_p50"] <= out["latency_ms_p95"] <= out["latency_ms_max"]


def test_the_benchmarks_refuse_counts_they_cannot_measure(capsys):
    # --repeat 0 and --clients 0 ended in a statistics error: no median of nothing
    from companion.cli.main import main

    for argv in (["--repeat", "0"], ["--clients", "0"], ["--actions", "1"]):
        with pytest.raises(SystemExit) as info:
            main(["bench", "web", *argv])
        assert info.value.code == 2
        assert f"argument {argv[0]}: must be a whole number from" in capsys.readouterr().err


def test_the_web_benchmark_stops_its_server_and_its_pages():
    # Its server closed from outside its loop left the loop running, and now and then made it
    # fail in select() (EBADF) during a later test; it now ends, and so does every page.
    import threading

    from companion.cli.bench.web import bench_web

    before = set(threading.enumerate())
    bench_web(clients=3, actions=4)
    # waitress's task threads stay parked until a page's next heartbeat (15 s): daemons
    new = [
        t for t in threading.enumerate() if t not in before and not t.name.startswith("waitress-")
    ]
    for t in new:
        t.join(5)
    left = [t for t in new if t.is_alive()]
    assert left == []


def test_the_camera_loop_benchmark_reports_one_roll_and_each_phase():
    from companion.cli.bench.watch import bench_watch

    out = bench_watch(rest_frames=12)
    assert (out["rolls_reported"], out["rolls_read_right"]) == (1, 1)
    assert out["moving_frames"] > 0 and out["reading_frames"] > 0 and out["at_rest_frames"] > 0
    assert out["frames"] == out["moving_frames"] + out["reading_frames"] + out["at_rest_frames"]
    assert 50 < out["rss_mb_max"] < 4000  # the reader's models alone take tens of MB
    # the same roll as the Pi camera gives it, its faces read from the main stream
    streams = out["with_main_stream"]
    assert streams["rolls_read_right"] == 1 and streams["reading_ms_per_frame"] > 0


def test_the_threads_benchmark_reads_the_roll_on_each_count_it_tries():
    from companion.cli.bench.threads import bench_threads

    out = bench_threads(frames=3, rounds=1, most=2)
    tried = [int(n) for n in out["read_ms_median"]]
    assert tried == list(range(1, min(out["cores"], 2) + 1))
    assert all(ms > 0 for ms in out["read_ms_median"].values())
    assert out["chosen"] in tried
    assert out["frames_read_right"] == 3 * len(tried)  # the dice lying still, read right

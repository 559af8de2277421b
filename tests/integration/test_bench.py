"""The benchmark runs (its figures are reported by `make bench`, never asserted here)."""

from companion.bench import bench_engine


def test_the_engine_benchmark_runs_and_reports_each_figure():
    out = bench_engine(repeat=5)
    for key in ("apply_one_action_ms", "score_full_board_ms", "session_act_plus_undo_on_disk_ms"):
        assert out[key] > 0


def test_every_live_page_receives_every_update():
    from companion.bench_web import bench_web

    out = bench_web(clients=4, actions=6)
    assert (out["deliveries"], out["missing"]) == (24, 0)

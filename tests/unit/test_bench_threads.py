"""The reader's thread count `companion bench threads` (and deploy/install.sh) chooses."""

from companion.cli.bench.threads import choose


def test_more_threads_are_chosen_only_for_a_clear_gain():
    assert choose({1: 34.3, 2: 25.8}) == 2
    assert choose({1: 30.0, 2: 28.0}) == 1  # within 10% of the fastest: keep the core free
    assert choose({1: 60.0, 2: 40.0, 3: 38.0, 4: 37.0}) == 2
    assert choose({1: 60.0, 2: 40.0, 3: 30.0, 4: 45.0}) == 3
    assert choose({1: 20.0, 2: 80.0}) == 1  # spinning threads on a busy machine: slower
    assert choose({1: 20.0}) == 1

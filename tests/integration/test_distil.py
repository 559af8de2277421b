"""models/recipe/distil.py's output loss (C62, C66): a student detector's output against
its teacher's.

Training only: it needs the `train` extra (PyTorch), which `make test` does not install, so
these tests run only where it is installed and are skipped elsewhere.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")


@pytest.fixture(scope="module")
def distil(train):
    import distil

    return distil


def outputs(seed, n=2, side=16):
    """A detector's output: a heat in 0..1, then sizes and offsets."""
    g = torch.Generator().manual_seed(seed)
    heat = torch.rand(n, 1, side, side, generator=g)
    return torch.cat([heat, torch.randn(n, 4, side, side, generator=g)], dim=1)


def test_the_student_owes_least_when_it_gives_the_teachers_output(distil):
    teacher = outputs(1)
    same = distil.output_loss(teacher.clone(), teacher).item()
    for seed in (2, 3, 4):
        assert distil.output_loss(outputs(seed), teacher).item() > same + 0.5


def test_sizes_and_offsets_count_only_where_the_teacher_sees_a_die(distil):
    teacher = outputs(1)
    teacher[:, :1] = 0.1  # no place at 0.3 or more
    student = teacher.clone()
    student[:, 1:] += 5.0
    assert distil.output_loss(student, teacher).item() == pytest.approx(
        distil.output_loss(teacher.clone(), teacher).item()
    )
    teacher[:, :1, 3, 3] = 0.9  # one place
    assert (
        distil.output_loss(student, teacher).item()
        > distil.output_loss(teacher.clone(), teacher).item() + 1.0
    )


def test_a_given_peak_rate_is_the_schedules_highest(train, tmp_path):
    """`--peak` (C68): continuing from weights, the one-cycle schedule rises to the rate
    given, not to train.py's 1e-3."""
    net = torch.nn.Linear(3, 2)
    init = tmp_path / "init.pt"
    torch.save(net.state_dict(), init)
    rates = {}
    for peak in (None, 1e-4):
        opt, sched = train.optimiser(net, 100, init, lambda _: None, "net", peak=peak)
        seen = []
        for _ in range(100):
            opt.step()
            sched.step()
            seen.append(opt.param_groups[0]["lr"])
        rates[peak] = max(seen)
    assert rates[None] == pytest.approx(1e-3, rel=0.02)
    assert rates[1e-4] == pytest.approx(1e-4, rel=0.02)

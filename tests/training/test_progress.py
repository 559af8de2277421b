"""models/recipe/progress.py: a training stage stopped and run again with --resume ends where
one never stopped ends."""

from __future__ import annotations

import argparse

import numpy as np
import pytest

STEPS = 10


def stage(progress_module, folder, stage_name="stage", stop_at=None, resume=False):
    """A small training loop saved every 3 steps: its final weights, or None when stopped
    before step ``stop_at``."""
    import torch

    torch.manual_seed(0)
    net = torch.nn.Linear(4, 2)
    opt = torch.optim.AdamW(net.parameters(), 1e-2)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 1e-2, total_steps=STEPS)
    rng = np.random.default_rng(3)
    progress = progress_module.Progress(folder, "faces", stage_name, print, resume, every=3)
    first = progress.start(net, opt, sched, rng)
    for step in range(first, STEPS):
        if step == stop_at:
            return None
        x = torch.from_numpy(rng.normal(size=(8, 4)).astype(np.float32))
        x = x + 0.1 * torch.randn(8, 4)  # draws of both generators
        loss = net(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        progress.tick(step + 1, STEPS, net, opt, sched, rng)
    return {k: v.clone() for k, v in net.state_dict().items()}, first


@pytest.fixture
def progress(train):
    import progress

    return progress


def test_a_stopped_stage_resumed_reaches_the_weights_of_one_never_stopped(progress, tmp_path):
    whole, _ = stage(progress, tmp_path / "whole")
    assert stage(progress, tmp_path / "stopped", stop_at=8) is None  # last saved at step 6
    resumed, first = stage(progress, tmp_path / "stopped", resume=True)
    assert first == 6
    for name, weights in whole.items():
        assert np.array_equal(weights.numpy(), resumed[name].numpy()), name
    # finished: run again, it only loads the weights
    again, first = stage(progress, tmp_path / "stopped", resume=True)
    assert first == STEPS and all(np.array_equal(again[k], whole[k]) for k in whole)


def test_another_stage_s_progress_is_not_continued(progress, tmp_path):
    stage(progress, tmp_path, stop_at=8)
    _, first = stage(progress, tmp_path, stage_name="another stage", resume=True)
    assert first == 0
    _, first = stage(progress, tmp_path, stop_at=None, resume=False)  # without --resume
    assert first == 0


def test_a_stage_is_its_options_but_where_it_writes_and_its_threads(progress):
    def args(**changed):
        base = dict(out="models", threads=1, resume=False, faces_steps=3000, leave_out="")
        return argparse.Namespace(**{**base, **changed})

    same = progress.signature(args(), "faces")
    assert progress.signature(args(out="elsewhere", threads=2, resume=True), "faces") == same
    assert progress.signature(args(faces_steps=4000), "faces") != same
    assert progress.signature(args(leave_out="epanemu"), "faces") != same
    assert progress.signature(args(), "detector") != same

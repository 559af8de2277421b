"""A training stage saved as it goes, so that a stopped run continues rather than starts again.

Every ``every`` steps the stage's weights, its optimiser and schedule, and the state of its
random draws are written to ``<checkpoints>/<what>-progress.pt`` (written whole, then put in
place, so that a run killed while saving leaves the last good file). A run given ``--resume``
continues from that file when it was saved by the same stage (the same options: a file from
another stage, or from the same stage with other steps, is not continued but replaced), and
a stage that had finished only loads its weights: rerunning a stopped ``make model`` skips the
stages done and continues the one that was stopped. From the step it continues at, the
stage draws the same batches it would have drawn without stopping.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import torch

EVERY = 250  # steps between saves: about a minute of a classifier stage on 2 cores


def signature(args, what: str) -> str:
    """What makes a stage this stage: every option but where it writes and how many threads
    it runs on (``args``: train.py's parsed options), and which model (``what``)."""
    own = {k: v for k, v in vars(args).items() if k not in ("out", "threads", "resume")}
    return json.dumps({"model": what, **own}, sort_keys=True, default=str)


class Progress:
    """Saves and restores one training loop: ``start`` before the first step, ``tick``
    after each."""

    def __init__(self, folder: Path, what: str, stage: str, log, resume: bool, every: int = EVERY):
        self.path = folder / f"{what}-progress.pt"
        self.what, self.stage, self.log = what, stage, log
        self.resume, self.every = resume, every

    def start(self, net, opt, sched, rng) -> int:
        """The step to start at: 0, or where the saved progress of this stage stopped (its
        weights, optimiser, schedule and draws restored)."""
        if not self.resume or not self.path.is_file():
            return 0
        saved = torch.load(self.path, weights_only=False)
        if saved.get("stage") != self.stage:
            self.log(f"{self.what}: {self.path} is another stage's progress: starting afresh")
            return 0
        net.load_state_dict(saved["net"])
        opt.load_state_dict(saved["opt"])
        sched.load_state_dict(saved["sched"])
        rng.bit_generator.state = saved["rng"]
        torch.set_rng_state(saved["torch_rng"])
        self.log(f"{self.what}: continuing at step {saved['step']} from {self.path}")
        return int(saved["step"])

    def tick(self, step: int, steps: int, net, opt, sched, rng) -> None:
        """After ``step`` steps of ``steps``: saved every ``every`` steps and at the end."""
        if step % self.every and step != steps:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        state = {
            "stage": self.stage,
            "step": step,
            "net": net.state_dict(),
            "opt": opt.state_dict(),
            "sched": sched.state_dict(),
            "rng": rng.bit_generator.state,
            "torch_rng": torch.get_rng_state(),
        }
        part = self.path.with_suffix(".part")
        torch.save(state, part)
        os.replace(part, self.path)

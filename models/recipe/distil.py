"""A cheaper start for the shipped detector, learned from it (C62; training only).

    python models/recipe/distil.py --data ../shared/data/dice \
        --teacher artifacts/c62/teacher.pt --out artifacts/c62/out --threads 2

The teacher is the shipped Lite0 detector put back into PyTorch (`unfold.py --model
detector` on `models/recipe/float/dice-detector.onnx`). The student is the same detector
with its stem and first two blocks, which work at stride 2, replaced by a `PatchStem`
(lite0.py) that goes to stride 4 at once; every later layer is the teacher's, frozen. No
label is used: the student learns what the teacher computes, on the crops the recipe's
detector stages train on (real train photos outside dev, three in four, and rendered
tables; `train.detector_sample`).

- First (`--feature-steps`), the stem alone: its 24 channels at stride 4 against the
  teacher's block 1 output, each channel's error in units of that channel's spread.
- Then (`--output-steps`), the same and the whole detector's output: the heat against the
  teacher's (binary cross-entropy on the soft heat), the sizes and offsets where the
  teacher's heat is 0.3 or more. Still only the stem learns.

With `--student` (C66), the student is instead a thinned detector (thin.py's, or train.py's
checkpoint of one), and every layer of it learns, its batch norms training as train.py's
do: for `--steps`, the whole output against the teacher's, as above, plus `--labels` times
train.py's loss on the labels (`train.detector_loss`), on train.py's one-cycle schedule
from `--peak` (train.py's 1e-3 for weights it continues from, unless given).

    python models/recipe/distil.py --data ../shared/data/dice \
        --teacher artifacts/c63/shipped.pt --student artifacts/c64/ckpt/detector.pt \
        --steps 2000 --out artifacts/c66/out --threads 2

Writes `detector.pt` (the student's weights) and `dice-detector.onnx` (float, a free
input side, as train.py exports a detector), for `quantize.py`.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import torch
import train as T
from lite0 import PatchStem, mids_of
from photos import load_labels, real_photos
from torch.nn import functional as F

from companion.vision import pictures as P

RENDERED = 600  # rendered tables beside the real photos
BATCH = 16
REAL_SHARE = 0.75


def samples(rng, real, photos, size):
    """A batch of train.py's detector samples: three in four of real photos, the rest
    rendered (``photos`` is ``real`` then the rendered tables)."""
    n_real = round(BATCH * REAL_SHARE)
    picks = [int(rng.integers(len(real))) for _ in range(n_real)]
    picks += [int(rng.integers(len(real), len(photos))) for _ in range(BATCH - n_real)]
    return [T.detector_sample(rng, *photos[i], size) for i in picks]


def images(batch):
    return torch.from_numpy(P.to_tensor(np.stack([b[0] for b in batch])))


def stride4(net, x):
    """The teacher's stride-4 features that the patch stem replaces (block 1's output)."""
    f = net.stem((x - 0.5) / 0.5)
    return net.blocks[1](net.blocks[0](f))


def student_stride4(net, x):
    return net.stem((x - 0.5) / 0.5)


def output_loss(s_out, t_out):
    """The student's output against the teacher's: binary cross-entropy on the soft heat,
    and L1 on the sizes and offsets where the teacher's heat is 0.3 or more."""
    heat = t_out[:, :1]
    lo = F.binary_cross_entropy(s_out[:, :1].clamp(1e-4, 1 - 1e-4), heat)
    near = (heat >= 0.3).float()
    reg = (F.l1_loss(s_out[:, 1:], t_out[:, 1:], reduction="none") * near).sum()
    return 10 * lo + reg / near.sum().clamp(min=1) / 4


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, required=True)
    ap.add_argument("--teacher", type=Path, required=True, help="unfold.py's detector .pt")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--width", type=int, default=64, help="the patch stem's channels")
    ap.add_argument("--feature-steps", type=int, default=3000)
    ap.add_argument("--output-steps", type=int, default=600)
    ap.add_argument("--student", type=Path, help="a thinned detector's .pt: all of it learns")
    ap.add_argument("--steps", type=int, default=2000, help="with --student")
    ap.add_argument("--labels", type=float, default=1.0, help="with --student: the labels' weight")
    ap.add_argument(
        "--peak", type=float, help="with --student: the schedule's peak rate (train.py's 1e-3)"
    )
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)

    def log(msg):
        print(msg, flush=True)

    size = P.DETECT_SIZE
    sets = load_labels(args.data, clean=False, upright=())
    real = real_photos(sets, dev=False)
    photos = real + T.synthetic_photos(rng, RENDERED, size)
    log(f"distil: {len(real)} real train photos (dev left out) + {RENDERED} rendered")

    teacher = T.make_detector("lite0")
    teacher.load_state_dict(torch.load(args.teacher))
    teacher.eval()
    for p in teacher.parameters():
        p.requires_grad_(False)
    if args.student:
        student = whole(args, teacher, real, photos, rng, log)
        save(student, args, size, log)
        return
    student = T.make_detector("lite0")
    student.load_state_dict(torch.load(args.teacher))
    student.patch_stem(PatchStem(args.width))
    student.eval()  # the frozen layers keep the teacher's batch-norm statistics
    for p in student.parameters():
        p.requires_grad_(False)
    for p in student.stem.parameters():
        p.requires_grad_(True)

    def batch():
        return images(samples(rng, real, photos, size))

    with torch.no_grad():  # each channel's spread, from a few batches
        spread = torch.cat([stride4(teacher, batch()) for _ in range(8)]).std(dim=(0, 2, 3))
    spread = spread.clamp(min=1e-3)[None, :, None, None]

    total = args.feature_steps + args.output_steps
    opt = torch.optim.AdamW(student.stem.parameters(), 2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=total, pct_start=0.1)
    t0 = time.time()
    for step in range(total):
        x = batch()
        student.stem.train()
        with torch.no_grad():
            want = stride4(teacher, x)
        got = student_stride4(student, x)
        lf = (((got - want) / spread) ** 2).mean()
        loss, lo = lf, torch.tensor(0.0)
        if step >= args.feature_steps:
            with torch.no_grad():
                t_out = teacher(x)
            student.stem.eval()  # its batch norms as they will run, for the whole output
            s_out = student(x)
            lo = output_loss(s_out, t_out)
            loss = lf + lo
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0 or step == total - 1:
            log(
                f"distil step {step}/{total} features {lf.item():.4f} output {lo.item():.4f}"
                f" {time.time() - t0:.0f}s"
            )
    save(student, args, size, log)


def whole(args, teacher, real, photos, rng, log):
    """C66: the thinned ``--student``, every layer learning, against the teacher's output
    and the labels, on batches drawn as train.py's detector stages draw them."""
    student = T.make_detector("lite0", mids=mids_of(torch.load(args.student)))
    opt, sched = T.optimiser(student, args.steps, args.student, log, "student", peak=args.peak)
    student.train()
    t0 = time.time()
    for step in range(args.steps):
        batch = samples(rng, real, photos, P.DETECT_SIZE)
        x = images(batch)
        with torch.no_grad():
            t_out = teacher(x)
        s_out = student(x)
        lo = output_loss(s_out, t_out)
        ll = T.detector_loss(s_out, *T.detector_targets(batch))[0]
        loss = lo + args.labels * ll
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0 or step == args.steps - 1:
            log(
                f"student step {step}/{args.steps} teacher {lo.item():.4f} labels"
                f" {ll.item():.4f} {time.time() - t0:.0f}s"
            )
    return student


def save(student, args, size, log):
    student.eval()
    args.out.mkdir(parents=True, exist_ok=True)
    torch.save(student.state_dict(), args.out / "detector.pt")
    T.export_detector(student, size, args.out / "dice-detector.onnx")
    log(f"wrote {args.out / 'dice-detector.onnx'}")


if __name__ == "__main__":
    main()

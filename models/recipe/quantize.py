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
reads a look in a little over half the time here (models/README.md has the figures).
Training only: it needs the `train` extra (onnx).
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
from photos import load_labels, real_dice

from companion.vision import reader as R

CALIBRATION_DICE = 2000  # real train dice (outside dev) whose crops set the ranges
BATCH = 64


class TrainCrops(CalibrationDataReader):
    """Batches of crops of real train dice, as the reader crops them, in its ``looks``."""

    def __init__(
        self,
        data: Path,
        count: int = CALIBRATION_DICE,
        seed: int = 0,
        size: int = R.CROP_SIZE,
        looks: str = "turns",
    ):
        dice, _ = real_dice(load_labels(data), dev=False)
        if not dice:
            raise SystemExit(f"no train dice under {data}: pass the folder of photo sets")
        rng = np.random.default_rng(seed)
        pick = rng.choice(len(dice), size=min(count, len(dice)), replace=False)
        crops = [R.crop_die(dice[i][0], dice[i][1], size) for i in sorted(pick)]
        turned = R.crop_looks(crops, looks)
        self.batches = iter(
            [np.ascontiguousarray(turned[i : i + BATCH]) for i in range(0, len(turned), BATCH)]
        )

    def get_next(self) -> dict | None:
        batch = next(self.batches, None)
        return None if batch is None else {"crops": batch}


def quantize(source: Path, out: Path, data: Path, method: str = "minmax") -> Path:
    """Write the int8 copy of the float classifier ``source`` to ``out``."""
    import onnx

    model = onnx.load(str(source))
    if any(n.op_type == "QuantizeLinear" for n in model.graph.node):
        raise SystemExit(
            f"{source} is already quantized: pass the float classifier training exported "
            "(make model keeps it as artifacts/model-checkpoints/dice-faces-float.onnx)"
        )
    # the crops' side is the float model's own input side (the recipe's --crop-size), and
    # they are seen in the looks the card beside ``out`` reads the classifier in
    size = model.graph.input[0].type.tensor_type.shape.dim[2].dim_value or R.CROP_SIZE
    card = out.parent / "dice.json"
    looks = json.loads(card.read_text()).get("looks", "turns") if card.exists() else "turns"
    with tempfile.TemporaryDirectory() as tmp:
        prepared = Path(tmp) / "prepared.onnx"
        quant_pre_process(str(source), str(prepared))
        quantize_static(
            str(prepared),
            str(out),
            TrainCrops(data, size=size, looks=looks),
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
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, required=True, help="folder of labelled photo sets")
    ap.add_argument("--float", type=Path, required=True, help="the float classifier (.onnx)")
    ap.add_argument("--out", type=Path, required=True, help="where the int8 copy is written")
    ap.add_argument("--calibration", choices=["minmax", "percentile"], default="minmax")
    args = ap.parse_args()
    out = quantize(args.float, args.out, args.data, args.calibration)
    print(f"quantized: {out}", flush=True)


if __name__ == "__main__":
    main()

"""A float model exported by the recipe, put back into the recipe's PyTorch model.

    python models/recipe/unfold.py --data ../shared/data/dice --model faces \
        --onnx models/recipe/float/dice-faces.onnx --out artifacts/faces.pt
    python models/recipe/unfold.py --data ../shared/data/dice --model detector \
        --onnx models/dice-coarse.onnx --out artifacts/detector.pt

so that a training stage can continue from a shipped model (`train.py --init-faces` or
`--init-detector`) whose checkpoint is gone. The shipped classifiers are int8 and cannot be
used: give their float files (the classifier's is kept in models/recipe/float/; the second
opinion's in commit 7805f99, `git show 7805f99:models/dice-faces.onnx`). The small detector
(dice-coarse.onnx) ships in float; the shipped detector, on EfficientNet-Lite0's trunk, is
8-bit, and its float export is kept in models/recipe/float/ (unfold it with `--model
detector`: a file whose layers are Lite0's blocks is put back into the recipe's Lite0
model, `--detector-width lite0` or `lite0-8` by its number of blocks).

The export folds each batch norm into the convolution before it. Each is unfolded with the
mean and variance of that convolution's output over training inputs (read from the ONNX
file's own intermediate outputs), so the model computes the same function in eval mode
(checked at the end against the ONNX file), and in training a batch's statistics start
close to the running ones. Training only: it needs the `train` extra (PyTorch, onnx).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import nets
import numpy as np
import onnx
import onnxruntime as ort
import photos
import samples
import torch
from onnx import numpy_helper

from companion.vision import pictures as P


def inputs(model: str, data: Path, rng: np.random.Generator) -> np.ndarray:
    """Training inputs the batch-norm statistics are measured on, as the recipe draws them."""
    sets = photos.load_labels(data)
    if model == "faces":
        dice, negs = photos.real_dice(sets, dev=False)
        crops = []
        for _ in range(2000):
            img, box, _, amount = dice[int(rng.integers(len(dice)))]
            crops.append(samples.sample_crop(rng, img, box, amount))
        crops += [c for c, _ in samples.synthetic_crops(rng, 1800, 8)]
        crops += [negs[int(rng.integers(len(negs)))][0] for _ in range(300)]
        return P.to_tensor(np.stack([samples.augment_crop(rng, c) for c in crops]))
    real = photos.real_photos(sets, dev=False)
    pictures = real + samples.synthetic_photos(rng, 100, P.DETECT_SIZE)
    picks = [int(rng.integers(len(real))) for _ in range(96)]
    picks += [int(rng.integers(len(real), len(pictures))) for _ in range(32)]
    crops = [samples.detector_sample(rng, *pictures[i], P.DETECT_SIZE)[0] for i in picks]
    return P.to_tensor(np.stack(crops))


def module_path(output: str, modules: dict) -> str:
    """The module a convolution's output comes from, by the exporter's scope in its name:
    "/s4/s4.0/s4.0.3/s4.0.3.0/Conv_output_0" names its module in full (s4.0.3.0); in
    "/blocks.1/dw/dw.0/Conv_output_0" each level names only itself (blocks.1.dw.0)."""
    parts = output.split("/")[1:-1]
    if parts[-1] in modules:
        return parts[-1]
    path: list[str] = []
    for part in parts:
        if path and part.startswith(path[-1] + "."):
            path[-1] = part
        else:
            path.append(part)
    return ".".join(path)


def detector_for(convs: list) -> torch.nn.Module:
    """The recipe's detector whose layers the exported ``convs`` are: the small one, or a
    Lite0 one with as many blocks as the file has."""
    blocks = {n.output[0].split("/")[1] for n in convs if n.output[0].startswith("/blocks.")}
    if not blocks:
        return nets.Detector()
    count = max(int(b.split(".")[1]) for b in blocks) + 1
    widths = [w for w, n in nets.LITE0_TRUNKS.items() if n == count]
    if not widths:
        raise SystemExit(f"a Lite0 detector of {count} blocks is not one the recipe trains")
    return nets.make_detector(widths[0])


def unfold(model: str, src: Path, data: Path, seed: int = 7) -> tuple[torch.nn.Module, float]:
    """The model of ``src`` as the recipe's, and the largest difference between its outputs
    and the ONNX file's on training inputs it was not unfolded with."""
    m = onnx.load(str(src))
    init = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in m.graph.initializer}
    convs = [n for n in m.graph.node if n.op_type == "Conv"]
    if model == "faces":  # its widths: the channels of its first, third and fifth layers
        widths = tuple(init[convs[k].input[1]].shape[0] for k in (0, 2, 4))
        net = nets.Faces(len(photos.CLASSES), widths).eval()
    else:
        net = detector_for(convs).eval()
    # Every convolution's output, to measure what each batch norm saw.
    for node in convs:
        m.graph.output.append(
            onnx.helper.make_tensor_value_info(node.output[0], onnx.TensorProto.FLOAT, None)
        )
    session = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(seed)
    x = inputs(model, data, rng)
    first = session.get_inputs()[0].name
    batch = session.get_inputs()[0].shape[0]  # the detector is exported for one picture
    batch = batch if isinstance(batch, int) else 64
    outs = [session.run(None, {first: x[i : i + batch]}) for i in range(0, len(x), batch)]
    names = [o.name for o in session.get_outputs()]
    modules = dict(net.named_modules())
    with torch.no_grad():
        for node in convs:
            # "/s4/s4.0/s4.0.3/s4.0.3.0/Conv_output_0": the module s4.0.3.0, whose batch norm
            # (if it has one) is the next module of its block, s4.0.3.1
            path = module_path(node.output[0], modules)
            conv = modules[path]
            conv.weight.copy_(init[node.input[1]])
            bias = init[node.input[2]]
            head, _, index = path.rpartition(".")
            bn = modules.get(f"{head}.{int(index) + 1}")
            if not isinstance(bn, torch.nn.BatchNorm2d):
                conv.bias.copy_(bias)  # a convolution with no batch norm keeps its own bias
                continue
            k = names.index(node.output[0])
            y = np.concatenate([o[k] for o in outs]).astype(np.float64)  # z + bias
            mean = torch.from_numpy(y.mean((0, 2, 3)) - bias.numpy()).float()
            var = torch.from_numpy(y.var((0, 2, 3))).float()
            # eval: (z - mean) / sqrt(var + eps) * sqrt(var + eps) + mean + bias = z + bias
            bn.running_mean.copy_(mean)
            bn.running_var.copy_(var)
            bn.weight.copy_(torch.sqrt(var + bn.eps))
            bn.bias.copy_(mean + bias)
        prefix = "m." if model == "faces" else ""  # the classifier is exported in a wrapper
        for name, module in modules.items():
            if isinstance(module, torch.nn.Linear):
                module.weight.copy_(init[f"{prefix}{name}.weight"])
                module.bias.copy_(init[f"{prefix}{name}.bias"])
    test = inputs(model, data, np.random.default_rng(seed + 1))[:64]
    theirs = np.concatenate(
        [session.run(None, {first: test[i : i + batch]})[0] for i in range(0, len(test), batch)]
    )
    with torch.no_grad():
        out = net(torch.from_numpy(test))
        mine = torch.softmax(out[0], 1).numpy() if model == "faces" else out.numpy()
    return net, float(np.abs(theirs - mine).max())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, required=True, help="folder of labelled photo sets")
    ap.add_argument("--model", choices=["faces", "detector"], required=True)
    ap.add_argument("--onnx", type=Path, required=True, help="a float file the recipe exported")
    ap.add_argument("--out", type=Path, required=True, help="where to write the .pt weights")
    args = ap.parse_args()
    net, diff = unfold(args.model, args.onnx, args.data)
    if diff > 1e-3:
        raise SystemExit(f"the unfolded model differs from {args.onnx} by {diff:.2g}: not written")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(net.state_dict(), args.out)
    print(f"wrote {args.out} (outputs within {diff:.1g} of {args.onnx})")


if __name__ == "__main__":
    main()

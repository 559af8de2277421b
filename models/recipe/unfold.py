"""A float face classifier exported by the recipe, put back into the recipe's PyTorch model.

    python models/recipe/unfold.py --data ../shared/data/dice \
        --onnx FLOAT.onnx --out artifacts/faces.pt

so that a training stage can continue from a shipped classifier (`train.py --init-faces`)
whose checkpoint is gone. The shipped int8 file cannot be used: give its float file (the
shipped one is in commit 7805f99, `git show 7805f99:models/dice-faces.onnx`).

The export folds each batch norm into the convolution before it. Each is unfolded with the
mean and variance of that convolution's output over training crops (real dice, rendered
crops and "not a die" patches), so the model computes the same function in eval mode
(checked at the end against the ONNX file), and in training a batch's statistics start
close to the running ones. Training only: it needs the `train` extra (PyTorch, onnx).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import torch
import torch.nn.functional as F
import train as T
from onnx import numpy_helper

from companion.vision import reader as R


def unfold(src: Path, data: Path, seed: int = 7) -> tuple[T.Faces, float]:
    """The classifier of ``src`` as the recipe's model, and the largest difference between
    its probabilities and the ONNX file's on 300 real train crops."""
    m = onnx.load(str(src))
    init = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in m.graph.initializer}
    convs = [n for n in m.graph.node if n.op_type == "Conv"]
    net = T.Faces(len(T.CLASSES)).eval()
    if len(convs) != len(net.body):
        raise SystemExit(
            f"{src}: {len(convs)} convolutions, the recipe's model has {len(net.body)}"
        )
    rng = np.random.default_rng(seed)
    dice, negs = T.real_dice(T.load_labels(data), dev=False)
    crops = []
    for _ in range(2000):
        img, box, _, amount = dice[int(rng.integers(len(dice)))]
        crops.append(T.sample_crop(rng, img, box, amount))
    crops += [c for c, _ in T.synthetic_crops(rng, 1800, 8)]
    crops += [negs[int(rng.integers(len(negs)))][0] for _ in range(300)]
    x = torch.from_numpy(R.to_tensor(np.stack([T.augment_crop(rng, c) for c in crops])))
    with torch.no_grad():
        for k, node in enumerate(convs):
            conv, bn = net.body[k][0], net.body[k][1]
            conv.weight.copy_(init[node.input[1]])
            bias = init[node.input[2]]
            z = conv(x)
            mean, var = z.mean((0, 2, 3)), z.var((0, 2, 3), unbiased=False)
            # eval: (z - mean) / sqrt(var + eps) * sqrt(var + eps) + mean + bias = z + bias
            bn.running_mean.copy_(mean)
            bn.running_var.copy_(var)
            bn.weight.copy_(torch.sqrt(var + bn.eps))
            bn.bias.copy_(mean + bias)
            x = F.relu(z + bias[None, :, None, None])
        for name in ("embed", "out"):
            getattr(net, name).weight.copy_(init[f"m.{name}.weight"])
            getattr(net, name).bias.copy_(init[f"m.{name}.bias"])
    session = ort.InferenceSession(str(src), providers=["CPUExecutionProvider"])
    every = max(1, len(dice) // 300)
    test = R.to_tensor(np.stack([T.sample_crop(rng, i, b, a) for i, b, _, a in dice[::every]]))
    with torch.no_grad():
        mine = torch.softmax(net(torch.from_numpy(test))[0], 1).numpy()
    return net, float(np.abs(session.run(None, {"crops": test})[0] - mine).max())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, required=True, help="folder of labelled photo sets")
    ap.add_argument("--onnx", type=Path, required=True, help="a float dice-faces.onnx")
    ap.add_argument("--out", type=Path, required=True, help="where to write the .pt weights")
    args = ap.parse_args()
    net, diff = unfold(args.onnx, args.data)
    if diff > 1e-4:
        raise SystemExit(f"the unfolded model differs from {args.onnx} by {diff:.2g}: not written")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(net.state_dict(), args.out)
    print(f"wrote {args.out} (probabilities within {diff:.1g} of {args.onnx})")


if __name__ == "__main__":
    main()

"""Session 76's look (decides nothing; no rule, no candidate): would the detector run faster
in floating point than in 8 bits on this machine? The shipped 8-bit detector is turned back
into float (its weights dequantized, each of the activations' quantize and dequantize pairs
made a Clip to the range its 8 bits hold, which is where the quantizer left the ReLU6s it
folded in; the input's own dequantize kept), and both are timed on the same random 512x512 frame's
blocks, one thread, 40 runs after 5 to warm up, twice in turn. Run from the repository's root:
    .venv/bin/python models/recipe/judged/looks/s76_float_detector.py
"""

import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper

SHIPPED = Path("models/dice-detector.onnx")


def dequantized(path: Path) -> onnx.ModelProto:
    """The QDQ model at ``path`` in floating point."""
    m = onnx.load(str(path))
    g = m.graph
    inits = {i.name: i for i in g.initializer}
    quantized = {n.output[0] for n in g.node if n.op_type == "QuantizeLinear"}
    rename, keep, weights = {}, [], []
    for n in g.node:
        if n.op_type == "DequantizeLinear" and n.input[0] in inits:
            x = numpy_helper.to_array(inits[n.input[0]]).astype(np.float32)
            s = numpy_helper.to_array(inits[n.input[1]])
            z = numpy_helper.to_array(inits[n.input[2]]).astype(np.float32)
            axis = next((a.i for a in n.attribute if a.name == "axis"), 1)
            if s.ndim == 1 and x.ndim > 1:
                shape = [1] * x.ndim
                shape[axis] = -1
                s, z = s.reshape(shape), z.reshape(shape)
            weights.append(numpy_helper.from_array(((x - z) * s).astype(np.float32), n.output[0]))
        elif n.op_type == "QuantizeLinear":
            # the range the pair's 8 bits hold: the quantizer folded ReLU6s into it
            s = float(numpy_helper.to_array(inits[n.input[1]]))
            z = float(numpy_helper.to_array(inits[n.input[2]]))
            low, high = n.output[0] + "_low", n.output[0] + "_high"
            weights += [
                numpy_helper.from_array(np.array((0 - z) * s, np.float32), low),
                numpy_helper.from_array(np.array((255 - z) * s, np.float32), high),
            ]
            keep.append(onnx.helper.make_node("Clip", [n.input[0], low, high], [n.output[0]]))
        elif n.op_type == "DequantizeLinear" and n.input[0] in quantized:
            rename[n.output[0]] = n.input[0]
        else:
            keep.append(n)

    def source(name: str) -> str:
        while name in rename:
            name = rename[name]
        return name

    for n in keep:
        for i, x in enumerate(n.input):
            n.input[i] = source(x)
    # a graph output a removed pair gave is now given by the node before that pair
    keep += [
        onnx.helper.make_node("Identity", [source(o.name)], [o.name])
        for o in g.output
        if o.name in rename
    ]
    del g.node[:]
    g.node.extend(keep)
    g.initializer.extend(weights)
    return m


def median_ms(path: str, x: np.ndarray) -> tuple[float, np.ndarray]:
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 3
    s = ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"])
    for _ in range(5):
        s.run(None, {"image": x})
    times = []
    for _ in range(40):
        t0 = time.perf_counter()
        out = s.run(None, {"image": x})[0]
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000, out


def main() -> None:
    x = np.random.default_rng(0).integers(0, 256, (1, 256, 256, 12), dtype=np.uint8)
    with tempfile.TemporaryDirectory() as tmp:
        floated = str(Path(tmp) / "float.onnx")
        onnx.save(dequantized(SHIPPED), floated)
        for turn in (1, 2):
            q, a = median_ms(str(SHIPPED), x)
            f, b = median_ms(floated, x)
            print(f"turn {turn}: 8-bit {q:.2f} ms, float {f:.2f} ms a frame (median of 40)")
        print(f"largest difference in the heat: {float(np.abs(a[0, 0] - b[0, 0]).max()):.3f}")
    print("onnxruntime", ort.__version__, sys.platform)


if __name__ == "__main__":
    main()

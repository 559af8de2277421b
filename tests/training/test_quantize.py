"""models/recipe/quantize.py, run as `make model` runs it, without PyTorch.

The float classifier it quantizes is the shipped int8 one with its integers made floats
again (``dequantized``): the float file training exported is not shipped. The data folder
is the golden photos (tests/data/dice) written out as train rows, so the activation
ranges come from real dice, as they do from ../shared/data/dice in `make model`.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper

from companion.vision.pictures import crop_die, crop_looks, letterbox
from companion.vision.reader import STRIDE_COARSEST, DiceReader, model_dir
from tests.helpers import label, write_set

ROOT = Path(__file__).parents[2]
QUANTIZE = ROOT / "models" / "recipe" / "quantize.py"
GOLDEN = ROOT / "tests" / "data" / "dice"


def dequantized(source: Path, out: Path) -> Path:
    """A float copy of the QDQ classifier ``source``: each weight's integers times its
    scales, and each activation's quantize-dequantize pair dropped; a pair whose range
    starts at zero was a Relu that quantization folded into the layer before, so it
    becomes that Relu again."""
    model = onnx.load(str(source))
    graph = model.graph
    arrays = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    quantizers = {n.output[0]: n for n in graph.node if n.op_type == "QuantizeLinear"}
    nodes, floats, alias = [], {}, {}
    for node in graph.node:
        if node.op_type == "DequantizeLinear" and node.input[0] in arrays:
            q, scale, zero = (arrays[name] for name in node.input[:3])
            axis = next((a.i for a in node.attribute if a.name == "axis"), 1)
            shape = [1] * q.ndim
            if scale.ndim:
                shape[axis] = -1
            weight = (
                q.astype(np.float32) - zero.astype(np.float32).reshape(shape)
            ) * scale.reshape(shape)
            floats[node.output[0]] = weight.astype(np.float32)
        elif node.op_type == "DequantizeLinear" and node.input[0] in quantizers:
            q = quantizers[node.input[0]]
            if np.iinfo(arrays[q.input[2]].dtype).min - float(arrays[q.input[2]]) < 0:
                alias[node.output[0]] = q.input[0]
            else:
                nodes.append(helper.make_node("Relu", [q.input[0]], [node.output[0]]))
        elif node.op_type != "QuantizeLinear":
            nodes.append(node)

    def source_of(name: str) -> str:
        while name in alias:
            name = alias[name]
        return name

    for node in nodes:
        for k, name in enumerate(node.input):
            node.input[k] = source_of(name)
    nodes += [
        helper.make_node("Identity", [source_of(o.name)], [o.name])
        for o in graph.output
        if o.name in alias
    ]
    used = {name for node in nodes for name in node.input}
    kept = [i for i in graph.initializer if i.name in used and i.name not in floats]
    graph.ClearField("node")
    graph.node.extend(nodes)
    graph.ClearField("initializer")
    graph.initializer.extend(kept + [numpy_helper.from_array(v, k) for k, v in floats.items()])
    onnx.checker.check_model(model)
    onnx.save(model, str(out))
    return out


def golden_as_train_rows(folder: Path) -> Path:
    """The golden photos as a data folder of train rows (../shared/data/dice's layout), in
    the two sets the recipe reads whole photos from."""
    expected = json.loads((GOLDEN / "expected.json").read_text())
    for name in ("epanemu", "matteop65"):
        files = [file for file in expected if file.startswith(name)]
        rows = [
            label(file, value, box, "train", side=0)
            for file in files
            for value, box in zip(expected[file]["values"], expected[file]["boxes"], strict=True)
        ]
        write_set(folder / name, rows)
        for file in files:
            shutil.copy(GOLDEN / file, folder / name / file)
    return folder


def shipped_with_faces(faces: Path, models: Path) -> Path:
    """A models folder: the shipped detector and card with the classifier ``faces``."""
    shutil.copytree(model_dir(), models, ignore=shutil.ignore_patterns("recipe", "*.md", "*.py"))
    shutil.copy(faces, models / "dice-faces.onnx")
    return models


def quantize(*args: Path | str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(QUANTIZE), *map(str, args)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )


@pytest.fixture(scope="module")
def float_faces(tmp_path_factory) -> Path:
    return dequantized(model_dir() / "dice-faces.onnx", tmp_path_factory.mktemp("f") / "f.onnx")


def test_the_float_copy_reads_as_the_shipped_classifier(float_faces, tmp_path):
    """The test's own footing: the dequantized classifier is the shipped one in floats."""
    models = shipped_with_faces(float_faces, tmp_path / "models")
    shipped, floated = DiceReader(model_dir(), threads=1), DiceReader(models, threads=1)
    img = cv2.imread(str(GOLDEN / "epanemu-test_dice_202_jpg.jpg"))
    a, b = shipped.read(img), floated.read(img)
    assert [d.value for d in a] == [d.value for d in b] == [1, 6]
    assert all(abs(x.confidence - y.confidence) < 0.05 for x, y in zip(a, b, strict=True))


def test_quantize_writes_an_int8_classifier_that_reads_as_the_shipped_one(float_faces, tmp_path):
    data = golden_as_train_rows(tmp_path / "data")
    out = tmp_path / "int8.onnx"
    run = quantize("--data", data, "--float", float_faces, "--out", out)
    assert run.returncode == 0, run.stderr
    assert f"quantized: {out}" in run.stdout

    made, shipped = onnx.load(str(out)), onnx.load(str(model_dir() / "dice-faces.onnx"))
    ops = {n.op_type for n in made.graph.node}
    assert {"QuantizeLinear", "DequantizeLinear"} <= ops
    weights = [i for i in made.graph.initializer if i.data_type == onnx.TensorProto.INT8]
    assert weights, "no 8-bit weights"
    assert out.stat().st_size < 0.4 * float_faces.stat().st_size
    for ours, theirs in (
        (made.graph.input, shipped.graph.input),
        (made.graph.output, shipped.graph.output),
    ):
        assert [(v.name, str(v.type)) for v in ours] == [(v.name, str(v.type)) for v in theirs]

    # The reader with it reads every golden photo as the shipped reader does: the same dice
    # in the same boxes, the same values (or unsure), and nearly the same confidence.
    models = shipped_with_faces(out, tmp_path / "models")
    ours, theirs = DiceReader(models, threads=1), DiceReader(model_dir(), threads=1)
    for photo in sorted(GOLDEN.glob("*.jpg")):
        img = cv2.imread(str(photo))
        a, b = ours.read(img), theirs.read(img)
        assert [(d.box, d.value) for d in a] == [(d.box, d.value) for d in b], photo.name
        assert all(abs(x.confidence - y.confidence) < 0.03 for x, y in zip(a, b, strict=True))


def test_quantize_refuses_a_classifier_already_quantized(tmp_path):
    data = golden_as_train_rows(tmp_path / "data")
    run = quantize(
        "--data", data, "--float", model_dir() / "dice-faces.onnx", "--out", tmp_path / "x.onnx"
    )
    assert run.returncode != 0
    assert "is already quantized: pass the float model" in run.stderr
    assert not (tmp_path / "x.onnx").exists()


def test_quantize_refuses_a_folder_without_train_dice(float_faces, tmp_path):
    (tmp_path / "empty").mkdir()
    run = quantize(
        "--data", tmp_path / "empty", "--float", float_faces, "--out", tmp_path / "x.onnx"
    )
    assert run.returncode != 0
    assert "no train dice under" in run.stderr
    assert "pass the folder of photo sets" in run.stderr
    assert not (tmp_path / "x.onnx").exists()


def test_quantize_refuses_a_data_folder_that_is_not_there(float_faces, tmp_path):
    run = quantize("--data", tmp_path / "nowhere", "--float", float_faces, "--out", tmp_path / "x")
    assert run.returncode != 0
    assert "nowhere is not a folder: pass the folder of photo sets" in run.stderr
    assert "Traceback" not in run.stderr


@pytest.fixture
def recipe(monkeypatch):
    """models/recipe's torch-free modules (photos.py, quantize.py), imported as train.py does."""
    monkeypatch.syspath_prepend(str(ROOT / "models" / "recipe"))
    import photos
    import quantize as q

    return photos, q


def test_upright_sets_keep_their_up_for_dice_and_patches(recipe, tmp_path):
    photos, _ = recipe
    data = golden_as_train_rows(tmp_path / "data")
    dice, patches = photos.real_dice(photos.load_labels(data, upright=("epanemu",)), dev=False)
    kinds = {(img.shape[:2], isinstance(img, photos.Upright)) for img, *_ in dice}
    assert kinds == {((640, 640), True), ((480, 640), False)}  # epanemu, matteop65
    assert any(isinstance(c, photos.Upright) for c, _ in patches)
    assert not any(
        isinstance(c, photos.Upright)
        for c, _ in photos.real_dice(photos.load_labels(data), dev=False)[1]
    )


def test_quantize_measures_the_classifier_in_the_cards_looks(recipe, tmp_path):
    """An upright classifier's activation ranges come from crops in its own looks."""
    photos, q = recipe
    data = golden_as_train_rows(tmp_path / "data")
    dice, _ = photos.real_dice(photos.load_labels(data), dev=False)
    crops = [crop_die(img, box) for img, box, *_ in dice]  # few dice: every one is picked
    for looks in ("turns", "upright"):
        batches = q.TrainCrops(data, looks=looks).batches
        assert np.array_equal(np.concatenate(list(batches)), crop_looks(crops, looks)), looks


@pytest.mark.parametrize("card", [None, {}, {"looks": "upright"}])
def test_quantize_takes_the_looks_from_the_card_beside_its_output(
    recipe, float_faces, tmp_path, monkeypatch, card
):
    _, q = recipe
    data, models = beside_a_card(tmp_path, card)
    seen = spy(monkeypatch, q, "TrainCrops", "looks")
    q.quantize(float_faces, models / "dice-faces.onnx", data)
    assert seen == [(card or {}).get("looks", "turns")]


def beside_a_card(tmp_path: Path, card: dict | None) -> tuple[Path, Path]:
    """The golden photos as train rows, and a models folder holding ``card`` as its
    dice.json (no card at all for None): where quantize writes its output."""
    data = golden_as_train_rows(tmp_path / "data")
    models = tmp_path / "models"
    models.mkdir()
    if card is not None:
        (models / "dice.json").write_text(json.dumps(card))
    return data, models


def spy(monkeypatch, q, name: str, key: str) -> list:
    """The ``key`` argument of each call quantize makes to its calibration reader ``name``
    (the reader still made as it is)."""
    seen: list = []
    made = getattr(q, name)
    monkeypatch.setattr(q, name, lambda *a, **k: seen.append(k[key]) or made(*a, **k))
    return seen


def tiny_detector(path: Path, offset: bool = True, stride: int = 2) -> Path:
    """A float detector as training exports one, in small: RGB in 0..1 (with Lite0's
    ``(x - 0.5) / 0.5`` when ``offset``), a 3x3 convolution (stride 2, as the shipped
    detectors' stems), ReLU, a 1x1 convolution to the five outputs."""
    rng = np.random.default_rng(5)
    w1 = rng.normal(0, 0.3, (8, 3, 3, 3)).astype(np.float32)
    w2 = rng.normal(0, 0.3, (5, 8, 1, 1)).astype(np.float32)
    nodes = [
        helper.make_node(
            "Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1], strides=[stride, stride]
        ),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("Conv", ["r1", "w2"], ["out"]),
    ]
    inits = [
        numpy_helper.from_array(w1, "w1"),
        numpy_helper.from_array(rng.normal(0, 0.1, 8).astype(np.float32), "b1"),
        numpy_helper.from_array(w2, "w2"),
    ]
    if offset:
        nodes[:0] = [
            helper.make_node(
                "Constant", [], ["half"], value=numpy_helper.from_array(np.array(0.5, np.float32))
            ),
            helper.make_node("Sub", ["image", "half"], ["centred"]),
            helper.make_node("Div", ["centred", "scale"], ["x"]),
        ]
        # one constant a node, one an initializer: an exporter writes either
        inits.append(numpy_helper.from_array(np.array(0.5, np.float32), "scale"))
    else:
        nodes[0].input[0] = "image"
    free = ["n", 3, "height", "width"]
    graph = helper.make_graph(
        nodes,
        "tiny",
        [helper.make_tensor_value_info("image", onnx.TensorProto.FLOAT, free)],
        [helper.make_tensor_value_info("out", onnx.TensorProto.FLOAT, ["n", 5, "r", "c"])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return path


def golden_frames() -> list[np.ndarray]:
    """The golden photos letterboxed as the reader gives them to its detector (BGR bytes)."""
    return [
        letterbox(cv2.imread(str(p)), 256, STRIDE_COARSEST)[0] for p in sorted(GOLDEN.glob("*.jpg"))
    ]


def session(model):
    import onnxruntime as ort

    return ort.InferenceSession(
        model.SerializeToString() if isinstance(model, onnx.ModelProto) else str(model),
        providers=["CPUExecutionProvider"],
    )


@pytest.mark.parametrize("offset", [True, False], ids=["normalised", "plain"])
def test_bytes_in_folds_the_input_conversion_into_the_first_convolution(recipe, tmp_path, offset):
    """The folded detector reads BGR bytes (as floats) as the exported one reads RGB in 0..1:
    exactly, but for the first convolution's zero padding on the top and left edges, which
    stands for black instead of grey when the input was offset."""
    from companion.vision.pictures import to_bytes, to_tensor

    _, q = recipe
    made = onnx.load(str(tiny_detector(tmp_path / "tiny.onnx", offset)))
    q.bytes_in(made)
    onnx.checker.check_model(made)
    assert [n.op_type for n in made.graph.node] == ["Conv", "Relu", "Conv"]
    read = {i for n in made.graph.node for i in n.input}
    assert all(i.name in read for i in made.graph.initializer)  # the folded constants went
    exported, folded = session(tmp_path / "tiny.onnx"), session(made)
    for frame in golden_frames():
        want = exported.run(None, {"image": to_tensor(frame[None])})[0]
        got = folded.run(None, {"image": to_bytes(frame[None]).astype(np.float32)})[0]
        edge = 1 if offset else 0  # the output row and column that read the padding
        assert np.abs(got - want)[..., edge:, edge:].max() < 1e-4
        assert offset or np.abs(got - want).max() < 1e-4


def test_quantize_writes_a_detector_that_takes_the_frames_bytes(tmp_path):
    data = golden_as_train_rows(tmp_path / "data")
    source, out = tiny_detector(tmp_path / "tiny.onnx"), tmp_path / "int8.onnx"
    run = quantize("--data", data, "--float", source, "--out", out)
    assert run.returncode == 0, run.stderr
    assert f"quantized: {out}" in run.stdout

    made = onnx.load(str(out))
    (image,) = made.graph.input
    assert image.name == "image" and image.type.tensor_type.elem_type == onnx.TensorProto.UINT8
    # its stem is 3x3 with stride 2: it takes the frame's 2x2 blocks, channels last
    dims = [d.dim_value or d.dim_param for d in image.type.tensor_type.shape.dim]
    assert dims == ["n", "rows", "columns", 12]
    assert not any(n.op_type == "QuantizeLinear" and "image" in n.input for n in made.graph.node)
    assert [i for i in made.graph.initializer if i.data_type == onnx.TensorProto.INT8]

    from companion.vision.pictures import to_blocks, to_tensor

    exported, quantized = session(source), session(out)
    for frame in golden_frames():
        want = exported.run(None, {"image": to_tensor(frame[None])})[0]
        got = quantized.run(None, {"image": to_blocks(frame[None])})[0]
        # Each output follows the float one, away from the padded edges (measured: 0.97 to
        # 0.999; the frame's channels read in the wrong order give 0.90 at best, some below 0)
        for k in range(want.shape[1]):
            a, b = want[0, k, 1:, 1:].ravel(), got[0, k, 1:, 1:].ravel()
            assert np.corrcoef(a, b)[0, 1] > 0.95, k


@pytest.mark.parametrize("card", [None, {}, {"detect_size": 640}])
def test_quantize_letterboxes_a_detectors_frames_to_the_cards_side(
    recipe, tmp_path, monkeypatch, card
):
    # A detector read at 640 px was calibrated on frames letterboxed to 512: its activation
    # ranges measured on dice smaller than it ever sees.
    _, q = recipe
    data, models = beside_a_card(tmp_path, card)
    frames = q.TrainFrames
    seen = spy(monkeypatch, q, "TrainFrames", "size")
    q.quantize(tiny_detector(tmp_path / "tiny.onnx"), models / "dice-detector.onnx", data)
    assert seen == [(card or {}).get("detect_size", 512)]
    sides = [max(f.shape[2:]) for f in frames(data, size=seen[0]).frames]  # (1, 3, H, W)
    assert sides and set(sides) == {seen[0]}  # each frame's longer side, as the reader's


def test_bytes_in_refuses_a_detector_it_cannot_fold(recipe, tmp_path):
    _, q = recipe
    model = onnx.load(str(tiny_detector(tmp_path / "tiny.onnx")))
    sub = next(n for n in model.graph.node if n.op_type == "Sub")
    sub.op_type = "Pow"
    with pytest.raises(SystemExit, match="the detector's input meets Pow before a convolution"):
        q.bytes_in(model)


def test_the_reader_hands_each_detector_the_input_it_takes(tmp_path):
    """A detector quantize.py made takes the frame's bytes (or their 2x2 blocks, when its
    stem is 3x3 with stride 2), one training exported floats in 0..1: the reader gives each
    its own (onnxruntime refuses the other kinds)."""
    data = golden_as_train_rows(tmp_path / "data")
    floats = tiny_detector(tmp_path / "tiny.onnx")
    unstrided = tiny_detector(tmp_path / "unstrided.onnx", stride=1)
    for source, out in ((floats, "blocks.onnx"), (unstrided, "bytes.onnx")):
        assert quantize("--data", data, "--float", source, "--out", tmp_path / out).returncode == 0
    frame = cv2.imread(str(GOLDEN / "epanemu-test_dice_202_jpg.jpg"))
    for detector, kind, shape in (
        (floats, np.float32, (1, 3, 512, 512)),
        (tmp_path / "bytes.onnx", np.uint8, (1, 3, 512, 512)),
        (tmp_path / "blocks.onnx", np.uint8, (1, 256, 256, 12)),
    ):
        models = tmp_path / detector.stem
        shutil.copytree(
            model_dir(), models, ignore=shutil.ignore_patterns("recipe", "*.md", "*.py")
        )
        shutil.copy(detector, models / "dice-detector.onnx")
        reader = DiceReader(models, threads=1)
        given = reader._detector_input(letterbox(frame, 512, STRIDE_COARSEST)[0][None])
        assert given.dtype == kind and given.shape == shape, detector.stem
        assert reader.detect(frame) is not None  # onnxruntime takes it


def test_blocks_are_the_frames_pixels_channels_last():
    from companion.vision.pictures import to_blocks

    frame = np.random.default_rng(0).integers(0, 256, (2, 6, 8, 3), dtype=np.uint8)
    blocks = to_blocks(frame)
    assert blocks.shape == (2, 3, 4, 12) and blocks.flags.c_contiguous
    for by in range(2):
        for bx in range(2):
            for c in range(3):
                got = blocks[..., (by * 2 + bx) * 3 + c]
                assert np.array_equal(got, frame[:, by::2, bx::2, c])


def test_a_detector_on_blocks_computes_the_same_numbers(recipe, tmp_path, monkeypatch):
    """``takes_blocks`` rearranges the stem's integers and changes nothing they sum to: the
    detector on blocks gives exactly what the same quantized detector gives on bytes. A
    detector whose stem is not 3x3 with stride 2 is left as it is."""
    from companion.vision.pictures import to_blocks, to_bytes

    _, q = recipe
    data = golden_as_train_rows(tmp_path / "data")
    blocks = q.takes_blocks
    monkeypatch.setattr(q, "takes_blocks", lambda model: False)  # the bytes detector first
    source = tiny_detector(tmp_path / "tiny.onnx")
    q.quantize(source, tmp_path / "bytes.onnx", data)
    monkeypatch.setattr(q, "takes_blocks", blocks)
    made = onnx.load(str(tmp_path / "bytes.onnx"))
    assert q.takes_blocks(made)
    onnx.checker.check_model(made)
    on_bytes, on_blocks = session(tmp_path / "bytes.onnx"), session(made)
    for frame in golden_frames():
        want = on_bytes.run(None, {"image": to_bytes(frame[None])})[0]
        got = on_blocks.run(None, {"image": to_blocks(frame[None])})[0]
        assert np.array_equal(got, want)
    q.quantize(tiny_detector(tmp_path / "plain.onnx", stride=1), tmp_path / "plain-q.onnx", data)
    plain = onnx.load(str(tmp_path / "plain-q.onnx"))
    assert not q.takes_blocks(plain)
    assert [d.dim_value for d in plain.graph.input[0].type.tensor_type.shape.dim][1] == 3

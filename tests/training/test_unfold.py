"""models/recipe/unfold.py: a float file the recipe exported, put back into the recipe's
PyTorch model (to continue training from a shipped model whose checkpoint is gone).

Training only: it needs the `train` extra (PyTorch), which `make test-training` installs.
The batch norms are measured on the golden photos written out as train rows.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.training.test_quantize import golden_as_train_rows

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="module")
def recipe(train):
    """models/recipe's train.py and unfold.py, imported as they import each other."""
    import unfold

    return train, unfold


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    return golden_as_train_rows(tmp_path_factory.mktemp("data"))


@pytest.mark.parametrize(
    "model, onnx_file, kind",
    [
        ("detector", "models/recipe/float/dice-detector.onnx", "Lite0Detector"),
        ("detector", "models/dice-coarse.onnx", "Detector"),
        ("faces", "models/recipe/float/dice-faces.onnx", "Faces"),
    ],
)
def test_a_shipped_float_file_is_put_back_into_the_recipes_model(
    recipe, data, model, onnx_file, kind
):
    """Each float file that ships or is kept (the Lite0 detector's export, the small coarse
    detector, the classifier's export) comes back as the recipe's model of its kind, which
    computes what the file computes on training inputs it was not unfolded with."""
    _, unfold = recipe
    net, diff = unfold.unfold(model, ROOT / onnx_file, data)
    assert type(net).__name__ == kind
    assert diff < 1e-3  # unfold.py's own bar for writing the weights


def test_a_convolutions_module_is_found_by_either_naming_of_its_scope(recipe):
    _, unfold = recipe
    modules = {"s4.0.3.0": None, "stem.0": None}
    assert unfold.module_path("/s4/s4.0/s4.0.3/s4.0.3.0/Conv_output_0", modules) == "s4.0.3.0"
    assert unfold.module_path("/stem/stem.0/Conv_output_0", modules) == "stem.0"
    assert unfold.module_path("/blocks.1/dw/dw.0/Conv_output_0", modules) == "blocks.1.dw.0"
    assert (
        unfold.module_path("/blocks.4/project/project.0/Conv_output_0", modules)
        == "blocks.4.project.0"
    )

"""Fixtures of the training recipe's tests (`make test-training`): models/recipe's scripts,
imported as they import each other."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).parents[2]


@pytest.fixture(scope="module")
def train():
    """models/recipe's train.py, imported as the recipe's scripts import each other (its
    folder on the path while the module's tests run). Training only: a test using it is
    skipped where PyTorch (the `train` extra) is not installed."""
    pytest.importorskip("torch")
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(REPO / "models" / "recipe"))
        import train

        yield train


@pytest.fixture(scope="module")
def samples(train):
    """models/recipe's samples.py: what each training step sees."""
    import samples

    return samples

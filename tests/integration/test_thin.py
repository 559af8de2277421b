"""models/recipe/lite0.py's thinning (C63): the shipped detector with each block's expanded
middle cut to a share of its channels, to be trained again (thin.py, then train.py).

Training only: it needs the `train` extra (PyTorch), which `make test` does not install, so
these tests run only where it is installed and are skipped elsewhere.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")


@pytest.fixture(scope="module")
def lite0(train):
    import lite0

    return lite0


@pytest.fixture(scope="module")
def net(train):
    """A Lite0 detector with random weights and batch-norm statistics (no ImageNet file)."""
    torch.manual_seed(3)
    net = train.make_detector("lite0")
    with torch.no_grad():
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.normal_(0, 0.1)
                m.running_var.uniform_(0.5, 2)
                m.weight.normal_(1, 0.3)
                m.bias.normal_(0, 0.1)
    return net.eval()


def pictures(n=2, side=64, seed=4):
    return torch.rand(n, 3, side, side, generator=torch.Generator().manual_seed(seed))


def trunk(net, x):
    """The last block's features (a detector with random weights gives a near-flat map)."""
    f = net.stem((x - 0.5) / 0.5)
    for block in net.blocks:
        f = block(f)
    return f


def test_a_thinned_detector_computes_the_full_one_without_its_dropped_channels(train, lite0, net):
    """Thinned to half, it gives what the full detector gives with the dropped channels'
    projection columns set to zero, and not what the full one gives as it is."""
    scores = lite0.importance(net, [pictures()])
    thinned = lite0.thin(net, 0.5, scores, train.cbr, train.dws)
    widths = [b.dw[0].out_channels for b in thinned.blocks]
    assert widths[0] == 32  # block 0 does not expand: it is left whole
    assert widths[1:] == [48, 72, 72, 120, 120, 240, 240, 240, 336, 336]
    masked = train.make_detector("lite0")
    masked.load_state_dict(net.state_dict())
    with torch.no_grad():
        for block, score, width in zip(masked.blocks, scores, widths, strict=True):
            keep = torch.zeros(len(score), dtype=torch.bool)
            keep[torch.topk(score, width).indices] = True
            block.project[0].weight[:, ~keep] = 0
    masked.eval()
    x = pictures(seed=5)
    with torch.no_grad():
        assert torch.allclose(thinned(x), masked(x), atol=1e-5)
        got, want, whole = trunk(thinned, x), trunk(masked, x), trunk(net, x)
    assert torch.allclose(got, want, atol=1e-5)
    assert (got - whole).abs().max() > 100 * (got - want).abs().max()  # the cut is felt


def test_kept_whole_a_thinned_detector_is_the_detector(train, lite0, net):
    scores = lite0.importance(net, [pictures()])
    same = lite0.thin(net, 1.0, scores, train.cbr, train.dws)
    x = pictures(seed=6)
    with torch.no_grad():
        assert torch.equal(same(x), net(x)) and torch.equal(trunk(same, x), trunk(net, x))


def test_the_channels_that_carry_nothing_are_the_ones_dropped(train, lite0, net):
    """A block's channels whose projection columns are zero score zero and go first: on the
    pictures scored, cutting them changes nothing."""
    silent = train.make_detector("lite0")
    silent.load_state_dict(net.state_dict())
    with torch.no_grad():
        for block in silent.blocks[1:]:  # half of each expanding block's middle
            block.project[0].weight[:, ::2] = 0
    x = pictures(seed=7)
    scores = lite0.importance(silent.eval(), [x])
    assert all(s[::2].max() == 0 and s[1::2].max() > 0 for s in scores[1:])
    thinned = lite0.thin(silent, 0.5, scores, train.cbr, train.dws)
    with torch.no_grad():
        # only silent ones were cut
        assert torch.allclose(trunk(thinned, x), trunk(silent, x), atol=1e-4)


def test_a_thinned_detectors_widths_come_back_from_its_weights(train, lite0, net):
    """train.py continues from thinned weights (--init-detector) at their widths."""
    scores = lite0.importance(net, [pictures()])
    thinned = lite0.thin(net, 0.25, scores, train.cbr, train.dws)
    mids = lite0.mids_of(thinned.state_dict())
    assert mids == [b.dw[0].out_channels for b in thinned.blocks]
    again = train.make_detector("lite0", mids=mids)
    again.load_state_dict(thinned.state_dict())  # refuses weights of other shapes
    with pytest.raises(ValueError, match="keep 0"):
        lite0.thin(net, 0, scores, train.cbr, train.dws)

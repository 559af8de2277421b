"""The models' card (dice.json) and what it names, with the shipped models: the second look,
the classifiers' looks, second opinions, the veto and the coarse detector, and the cards the
reader refuses.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import VisionError
from companion.training import render, scenes
from companion.vision.pictures import (
    UPRIGHT_TURN,
    crop_die,
    to_tensor,
)
from companion.vision.reader import (
    DiceReader,
    model_dir,
)
from tests.helpers import models_with_card

pytestmark = pytest.mark.integration
GOLDEN = Path(__file__).parents[1] / "data" / "dice"


def test_an_unsure_die_is_read_again_with_other_margins(tmp_path):
    rng = np.random.default_rng(3)
    img, (die,) = scenes.scene(rng, 480, 640, faces=[render.Face("pips", 4)], size_range=(50, 70))
    box = die.box
    alone = models_with_card(tmp_path, second_opinion=None)  # the second look on its own
    sure, unsure = DiceReader(alone), DiceReader(alone, min_confidence=0.999999)
    assert sure.second_look and unsure.second_look == sure.second_look
    for reader in (sure, unsure):
        runs = []
        run = reader._run
        reader._run = lambda crops, looks=None, cast=None, run=run, runs=runs: (
            runs.append(len(crops)) or run(crops, looks, cast)
        )
        (got,) = reader.read_boxes(img, [box])
        if reader is sure:  # read with confidence at the first look: no second one
            assert runs == [1] and got.value == 4
        else:  # unsure at the first look: read again once per margin, the looks averaged
            assert runs == [1, len(reader.second_look)] and got.value is None
            looks = [crop_die(img, box)] + [
                crop_die(img, box, margin=m) for m in reader.second_look
            ]
            assert got.confidence == pytest.approx(float(run(looks)[0].mean(0).max()), abs=1e-5)


def test_an_upright_classifier_is_read_with_its_up_kept(tmp_path):
    """dice.json "looks": "upright": each crop is read as it is and turned UPRIGHT_TURN
    degrees either way (never a quarter turn, never mirrored), the three answers averaged."""
    img, dice = scenes.scene(np.random.default_rng(21), 480, 640, count=3)
    boxes = [d.box for d in dice]
    turns = DiceReader(models_with_card(tmp_path / "t", looks="turns"))
    upright = DiceReader(models_with_card(tmp_path / "u", looks="upright"))
    assert turns.looks == "turns" and upright.looks == "upright"
    crops = [crop_die(img, b) for b in boxes]
    centre = (crops[0].shape[0] / 2,) * 2
    seen = [
        np.stack(crops),
        *(
            np.stack(
                [cv2.warpAffine(c, m, c.shape[:2], borderMode=cv2.BORDER_REPLICATE) for c in crops]
            )
            for m in (
                cv2.getRotationMatrix2D(centre, a, 1.0) for a in (UPRIGHT_TURN, -UPRIGHT_TURN)
            )
        ),
    ]
    want = np.mean([upright._faces.run(None, {"crops": to_tensor(s)})[0] for s in seen], axis=0)
    got = upright.classify(img, boxes)[0]
    assert np.allclose(got, want, atol=1e-5)
    assert not np.allclose(got, turns.classify(img, boxes)[0], atol=1e-3)


def test_a_card_with_looks_this_reader_does_not_know_is_refused(tmp_path):
    with pytest.raises(VisionError, match="looks 'sideways'; this reader knows turns and upright"):
        DiceReader(models_with_card(tmp_path, looks="sideways"))


def test_a_card_whose_crop_size_is_not_its_classifiers_is_refused(tmp_path):
    card = json.loads((model_dir() / "dice.json").read_text())
    assert DiceReader().crop_size == card["crop_size"]  # the shipped pair agrees
    models = models_with_card(tmp_path, crop_size=card["crop_size"] + 16)
    with pytest.raises(VisionError, match=r"crop_size \d+, but .* reads \d+x\d+ crops") as err:
        DiceReader(models)
    assert err.value.code == "vision/card-mismatch"


def with_opinion(tmp_path, opinion=None, **change) -> Path:
    """A copy of the shipped models whose card names a second opinion (by default the
    shipped classifier again, as dice-opinion.onnx, read upright where the card reads it in
    turns, so the two readings differ), and no veto unless ``change`` names one."""
    opinion = opinion or {"file": "dice-opinion.onnx", "looks": "upright"}
    change = {"veto": None, **change}
    return with_classifier(
        tmp_path, "dice-opinion.onnx", second_opinion=opinion, looks="turns", **change
    )


def with_classifier(tmp_path, name: str, **change) -> Path:
    """``models_with_card`` with a copy of the shipped classifier as ``name`` beside it."""
    models = models_with_card(tmp_path, **change)
    shutil.copy(models / "dice-faces.onnx", models / name)
    return models


def test_a_die_still_unsure_is_given_the_second_opinion(tmp_path):
    """The card's "second_opinion": a box still unsure after the second look is read by the
    second classifier in its own looks, and its probabilities become the geometric mean of
    the two readings, renormalised; a die read with confidence never asks it, and a reader
    whose card names none asks nobody."""
    rng = np.random.default_rng(3)
    img, (die,) = scenes.scene(rng, 480, 640, faces=[render.Face("pips", 4)], size_range=(50, 70))
    assert DiceReader(models_with_card(tmp_path / "none", second_opinion=None))._opinions == []
    sure = DiceReader(with_opinion(tmp_path / "sure"))
    unsure = DiceReader(with_opinion(tmp_path / "unsure", min_confidence=0.999999))
    assert len(sure._opinions) == 1 and sure._opinions[0][1] == "upright"
    for reader in (sure, unsure):
        asked = []
        classify = reader._classify
        reader._classify = lambda faces, crops, looks, cast=None, asked=asked, c=classify: (
            asked.append((faces, len(crops), looks)) or c(faces, crops, looks, cast)
        )
        (got,) = reader.read_boxes(img, [die.box])
        (session, _), *_ = reader._opinions
        opinion = [a for a in asked if a[0] is session]
        if reader is sure:
            assert opinion == [] and got.value == 4
            continue
        assert opinion == [(session, 1, "upright")] and got.value is None
        crop = crop_die(img, die.box)
        first = reader._look_again(img, [die.box], classify(reader._faces, [crop], "turns")[0])
        other = classify(session, [crop], "upright")[0]
        mean = np.sqrt(first * other)
        want = mean / mean.sum()
        assert got.confidence == pytest.approx(float(want.max()), abs=1e-5)
        assert not np.isclose(float(first.max()), float(want.max()), atol=1e-4)


def test_opinions_in_a_list_are_asked_in_turn_about_the_faces_still_unsure(tmp_path):
    """A card may name several opinions: each is asked, in the card's order, only about the
    faces the readings before it leave unsure, and its reading is folded in by the same
    geometric mean. A face an opinion settles never asks the next."""
    rng = np.random.default_rng(3)
    faces = [render.Face("pips", 4), render.Face("pips", 2)]
    img, dice = scenes.scene(rng, 480, 640, faces=faces, size_range=(50, 70))
    boxes = [d.box for d in dice]
    chain = [
        {"file": "dice-opinion.onnx", "looks": "upright"},
        {"file": "dice-opinion2.onnx", "looks": "turns"},
    ]
    models = with_opinion(tmp_path, chain, min_confidence=0.999999)
    shutil.copy(models / "dice-faces.onnx", models / "dice-opinion2.onnx")
    reader = DiceReader(models)
    (first, _), (second, _) = reader._opinions
    classify = reader._classify
    crops = [crop_die(img, b) for b in boxes]
    probs = reader._look_again(img, boxes, classify(reader._faces, crops, "turns")[0])
    for session, looks in ((first, "upright"), (second, "turns")):
        mean = np.sqrt(probs * classify(session, crops, looks)[0])
        probs = mean / mean.sum(1, keepdims=True)

    def asking(settle_first: bool):
        """Read the boxes; with ``settle_first`` the first opinion is sure the first face it
        is asked about (die 0: both are unsure, asked in box order) is a 4."""
        asked = []

        def spy(faces, crops, looks, cast=None):
            asked.append((faces, len(crops), looks))
            p, e = classify(faces, crops, looks, cast)
            if faces is first and settle_first:
                p = p.copy()
                p[0] = np.eye(p.shape[1])[3]
            return p, e

        reader._classify = spy
        try:
            got = reader.read_boxes(img, boxes)
        finally:
            del reader._classify
        return (
            got,
            [(n, looks) for s, n, looks in asked if s in (first, second)],
            [s for s, _, _ in asked if s in (first, second)],
        )

    got, counts, sessions = asking(False)
    assert sessions == [first, second] and counts == [(2, "upright"), (2, "turns")]
    want = {(d.box, round(float(p.max()), 4)) for d, p in zip(dice, probs, strict=True)}
    assert {(d.box, round(d.confidence, 4)) for d in got} == want
    assert all(d.value is None for d in got)

    # The first opinion settles die 0 (a sure 4): the second is asked only about die 1.
    got, counts, sessions = asking(True)
    assert sessions == [first, second] and counts == [(2, "upright"), (1, "turns")]
    settled = {d.box: d for d in got}[dice[0].box]
    assert settled.value == 4 and settled.confidence == pytest.approx(1.0)


@pytest.mark.parametrize(
    "opinion, wrong",
    [
        ({"file": "no-such.onnx", "looks": "turns"}, "there is no file .*no-such"),
        ({"looks": "turns"}, "there is no file"),
        ({"file": "dice.json", "looks": "turns"}, r"it cannot be loaded \("),
        ({"file": "dice-opinion.onnx", "looks": "sideways"}, "its looks are not turns or upright"),
        (
            [
                {"file": "dice-opinion.onnx", "looks": "turns"},
                {"file": "gone.onnx", "looks": "turns"},
            ],
            "there is no file .*gone",
        ),
        (
            [{"file": "dice-opinion.onnx", "looks": "turns"}, "dice-opinion.onnx"],
            "its looks are not",
        ),
    ],
)
def test_a_card_whose_second_opinion_is_not_there_is_refused(tmp_path, opinion, wrong):
    """A card naming a second opinion that is missing, is not a model onnxruntime can load,
    or is read in looks this reader does not know, is refused as a mismatched card, as a
    card naming such a coarse detector is (below)."""
    models = with_opinion(tmp_path, opinion)
    with pytest.raises(VisionError, match=f"names a second opinion .*, but {wrong}") as err:
        DiceReader(models)
    assert err.value.code == "vision/card-mismatch"


def test_a_second_opinion_that_reads_another_crop_size_is_refused(tmp_path):
    """An opinion classifier from a run with another crop side would be handed crops it was
    never trained on: the card is refused, as it is for its own classifier."""
    import onnx  # a dev dependency

    models = with_opinion(tmp_path)
    made = onnx.load(str(models / "dice-opinion.onnx"))
    for dim in made.graph.input[0].type.tensor_type.shape.dim[2:]:
        dim.dim_value = 64  # its global mean reads any side; only the declared side differs
    del made.graph.value_info[:]
    onnx.save(made, str(models / "dice-opinion.onnx"))
    with pytest.raises(VisionError, match=r"crop_size 48, but .*dice-opinion.onnx reads 64x64"):
        DiceReader(models)


def with_veto(tmp_path, veto=None, **change) -> Path:
    """A copy of the shipped models whose card names a veto (by default the shipped
    classifier again, as dice-veto.onnx, read upright with confidence 0.7)."""
    veto = veto or {"file": "dice-veto.onnx", "looks": "upright", "confidence": 0.7}
    return with_classifier(tmp_path, "dice-veto.onnx", veto=veto, **change)


def test_a_face_read_with_confidence_that_the_veto_reads_as_another_is_made_unsure(tmp_path):
    """The card's "veto": every face read with confidence is read again by the veto's
    classifier; where that reads another face with at least the veto's confidence, the die is
    reported unsure (confidence: the lower of the two classifiers' for the face read), for a
    player to confirm. The veto reading the same face, another face less surely, or "not a
    die", changes nothing, and it is never asked about a face already unsure."""
    rng = np.random.default_rng(3)
    faces = [render.Face("pips", 4), render.Face("pips", 2)]
    img, dice = scenes.scene(rng, 480, 640, faces=faces, size_range=(50, 70))
    boxes = [d.box for d in dice]
    assert DiceReader(models_with_card(tmp_path / "none", veto=None))._veto is None
    reader = DiceReader(with_veto(tmp_path / "veto"))
    session, looks, confidence = reader._veto
    assert looks == "upright" and confidence == 0.7
    plain = {d.box: d for d in reader.read_boxes(img, boxes)}  # the veto agrees with itself
    assert sorted(d.value for d in plain.values()) == [2, 4]
    four = plain[dice[0].box]
    classes = reader.classes
    classify = reader._classify

    def vetoing(says: dict[str, float]):
        """Read the boxes with the veto's classifier saying ``says`` about every crop."""
        asked = []

        def spy(faces, crops, looks, cast=None):
            p, e = classify(faces, crops, looks, cast)
            if faces is session:
                asked.append((len(crops), looks))
                p = np.zeros_like(p)
                for name, share in says.items():
                    p[:, classes.index(name)] = share
            return p, e

        reader._classify = spy
        try:
            return {d.box: d for d in reader.read_boxes(img, boxes)}, asked
        finally:
            del reader._classify

    got, asked = vetoing({"5": 0.75, "4": 0.25})
    assert asked == [(2, "upright")]  # both dice were read with confidence
    assert got[dice[0].box].value is None and got[dice[0].box].face == "unsure"
    assert got[dice[0].box].confidence == pytest.approx(0.25)
    assert got[dice[1].box].value is None  # the 2 as well: the veto reads a 5 there too
    for says in ({"5": 0.65, "4": 0.35}, {"4": 0.9, "5": 0.1}, {"not-a-die": 0.95, "5": 0.05}):
        got, _ = vetoing(says)
        assert got[dice[0].box] == four, says

    # A face the reader leaves unsure is never asked about: nothing is read with confidence.
    unsure = DiceReader(with_veto(tmp_path / "unsure", min_confidence=0.999999))
    reader, session = unsure, unsure._veto[0]
    classify = unsure._classify
    got, asked = vetoing({"5": 0.75, "4": 0.25})
    assert asked == [] and all(d.value is None for d in got.values())


def test_a_veto_that_is_also_an_opinion_is_loaded_once(tmp_path):
    models = with_opinion(
        tmp_path, veto={"file": "dice-opinion.onnx", "looks": "turns", "confidence": 0.7}
    )
    reader = DiceReader(models)
    assert reader._veto[0] is reader._opinions[0][0] and reader._veto[1] == "turns"


@pytest.mark.parametrize(
    "veto, wrong",
    [
        ({"file": "no-such.onnx", "looks": "turns", "confidence": 0.7}, "there is no file"),
        ({"looks": "turns", "confidence": 0.7}, "there is no file"),
        ({"file": "dice-veto.onnx", "looks": "sideways", "confidence": 0.7}, "its looks are"),
        ({"file": "dice-veto.onnx", "looks": "turns"}, "it gives no confidence between 0 and 1"),
        ({"file": "dice-veto.onnx", "looks": "turns", "confidence": 7}, "it gives no confidence"),
        (
            {"file": "dice-veto.onnx", "looks": "turns", "confidence": "0.7"},
            "it gives no confidence",
        ),
        ("dice-veto.onnx", "it gives no confidence"),
        ({"file": "dice-veto.onnx", "looks": "turns", "confidence": True}, "it gives no"),
    ],
)
def test_a_card_whose_veto_cannot_be_used_is_refused(tmp_path, veto, wrong):
    models = with_veto(tmp_path, veto)
    with pytest.raises(VisionError, match=f"names a veto .*, but {wrong}") as err:
        DiceReader(models)
    assert err.value.code == "vision/card-mismatch"


def with_coarse(tmp_path, name="dice-coarse.onnx") -> Path:
    """A copy of the shipped models whose card names ``name`` (a copy of the shipped
    detector, unless that is already a model there) as the coarse pass's detector."""
    models = models_with_card(tmp_path, coarse_detector=name)
    if name == "dice-coarse.onnx":
        shutil.copy(models / "dice-detector.onnx", models / name)
    return models


def test_the_card_may_name_a_detector_of_its_own_for_the_coarse_pass(tmp_path):
    """dice.json "coarse_detector": the close-up pass at coarse_size runs that detector, and
    only that pass: the full pass (and a taught die's, and a tile's) stays the card's own."""
    reader = DiceReader(with_coarse(tmp_path / "coarse"))
    seen = {"full": [], "coarse": []}

    class Seen:  # a detector session, noting each input's picture size
        def __init__(self, session, name):
            self.session, self.name = session, name

        def run(self, names, feed):
            given = feed["image"].shape  # (1, 3, H, W); in 2x2 blocks (1, H/2, W/2, 12)
            seen[self.name].append(given[2:] if given[1] == 3 else (given[1] * 2, given[2] * 2))
            return self.session.run(names, feed)

    reader._detector = Seen(reader._detector, "full")
    reader._coarse = (Seen(reader._coarse[0], "coarse"), reader._coarse[1])
    img, dice = scenes.scene(np.random.default_rng(5), 480, 640, count=3)
    got = reader.read(img)
    assert seen == {"full": [(384, 512)], "coarse": [(128, 160)]}
    # the coarse detector is the full one's file here: the same reading as a card naming none
    own = DiceReader(models_with_card(tmp_path / "own", coarse_detector=None))
    assert own._coarse is None and got == own.read(img) and len(got) == len(dice)


@pytest.mark.parametrize(
    "name, wrong",
    [
        ("no-such.onnx", r"there is no file .*no-such"),
        ("dice.json", r"it cannot be loaded \("),
        ("dice-faces.onnx", r"reads only 48x48 pictures; the coarse pass needs one exported"),
    ],
)
def test_a_card_whose_coarse_detector_cannot_do_the_coarse_pass_is_refused(tmp_path, name, wrong):
    refused = f"names a coarse detector '{name}', but .*{wrong}"
    with pytest.raises(VisionError, match=refused) as err:
        DiceReader(with_coarse(tmp_path, name))
    assert err.value.code == "vision/card-mismatch"


def test_a_taught_die_is_embedded_by_the_card_s_symbols_classifier(tmp_path):
    """The card's "symbols": the classifier whose embeddings name a taught die's faces (and
    that reads the dice when one is taught), so that a new face classifier leaves every die
    taught before as it was. By default it is the face classifier itself."""
    img = cv2.imread(str(GOLDEN / "matteop65-valid_valid_10.jpg"))
    shipped = DiceReader()
    box = shipped.detect(img)[0][0]
    assert shipped.symbols_file == "dice-faces.onnx" and shipped._symbols is shipped._faces

    models = models_with_card(tmp_path, symbols="dice-symbols.onnx")
    shutil.copy(models / "dice-faces.onnx", models / "dice-symbols.onnx")
    shutil.copy(model_dir() / "dice-opinion.onnx", models / "dice-faces.onnx")  # another one
    reader = DiceReader(models)
    assert reader.symbols_id == shipped.symbols_id and reader.teach_id == shipped.teach_id
    assert np.allclose(reader.symbol_embeddings(img, [box]), shipped.symbol_embeddings(img, [box]))
    # ... while the faces are read by the new face classifier
    assert not np.allclose(reader.classify(img, [box])[1], shipped.classify(img, [box])[1])

    (models / "dice-symbols.onnx").unlink()
    with pytest.raises(VisionError, match=r"names a symbols classifier 'dice-symbols\.onnx'"):
        DiceReader(models)

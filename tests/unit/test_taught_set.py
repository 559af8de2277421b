"""A taught set of standard dice: the head over a classifier's answers, and the
cross-validation that keeps it only where it reads the shows better."""

from __future__ import annotations

import json

import numpy as np
import pytest

from companion.errors import StorageError, VisionError
from companion.vision.taught import Head, TaughtSet, teach_set

MODEL = "abc123"


def shows(rng, n_per_face=20, folds=5, confuse=0.0, signal=1.0):
    """Readings of shown dice by a made-up classifier: each face's dice read as that face,
    except that a share ``confuse`` of the 6s are read as 4 with confidence (as a die whose
    6 is a logo is); the embeddings carry the true face with strength ``signal``."""
    centres = rng.normal(size=(6, 64))
    probs, emb, labels, fold = [], [], [], []
    for face in range(6):
        for k in range(n_per_face):
            p = np.full(6, 0.02)
            read = 3 if face == 5 and rng.random() < confuse else face
            p[read] = 0.9
            probs.append(p)
            e = signal * centres[face] + rng.normal(size=64)
            emb.append(e / np.linalg.norm(e))
            labels.append(face)
            fold.append(k % folds)
    return np.array(probs), np.array(emb), np.array(labels), np.array(fold)


def one_show_each(probs, emb):
    """The readings as teach_set takes them: each die its own show, of one classifier."""
    return {"dice-faces.onnx": [(p[None], e[None]) for p, e in zip(probs, emb, strict=True)]}


def test_a_set_whose_6_is_read_as_4_is_taught_to_read_it_as_6():
    rng = np.random.default_rng(0)
    probs, emb, labels, folds = shows(rng, confuse=0.8)
    found = teach_set("logo", one_show_each(probs, emb), labels, folds, 0.75, MODEL)
    figures = found.figures["classifiers"]["dice-faces.onnx"]
    # across the folds, the 6s the classifier read wrong while sure are read right
    assert figures["untaught"]["wrong"] > 0.1
    assert figures["taught"]["wrong"] < figures["untaught"]["wrong"]
    assert figures["taught"]["right"] > figures["untaught"]["right"]
    # and a new throw of the logo 6, never shown, is read as 6
    test_probs, test_emb, test_labels, _ = shows(np.random.default_rng(0), confuse=1.0)
    head = found.heads["dice-faces.onnx"]
    at = list(range(6))
    sixes = test_labels == 5
    read = head.adjust(test_probs[sixes], test_emb[sixes], at)
    assert (read.argmax(1) == 5).mean() > 0.9


def test_a_set_the_classifier_already_reads_is_not_taught():
    rng = np.random.default_rng(1)
    probs, emb, labels, folds = shows(rng, confuse=0.0)
    with pytest.raises(VisionError) as info:
        teach_set("plain", one_show_each(probs, emb), labels, folds, 0.75, MODEL)
    assert info.value.code == "vision/teach-no-gain"
    assert "already reads 100% of the shown dice right" in info.value.message
    assert "Nothing was saved" in info.value.message


def test_teaching_that_would_read_more_dice_wrong_while_sure_is_refused():
    # The embeddings say nothing of the face, and the classifier is unsure of a third of
    # its dice: a head fitted to the shows could only learn their noise.
    rng = np.random.default_rng(2)
    probs, emb, labels, folds = shows(rng, signal=0.0)
    probs[::3] = np.full(6, 1 / 6)
    with pytest.raises(VisionError) as info:
        teach_set("noise", one_show_each(probs, emb), labels, folds, 0.75, MODEL)
    assert info.value.code == "vision/teach-no-gain"


def test_a_face_never_shown_and_a_single_picture_are_refused_by_name():
    rng = np.random.default_rng(3)
    probs, emb, labels, folds = shows(rng, confuse=0.8)
    keep = labels != 2  # no 3 shown
    with pytest.raises(VisionError) as info:
        teach_set("set", one_show_each(probs[keep], emb[keep]), labels[keep], folds[keep], 0.75, "")
    assert info.value.code == "vision/too-few-shows"
    assert "too few dice shown with 3 up" in info.value.message
    with pytest.raises(VisionError) as info:
        teach_set("set", one_show_each(probs, emb), labels, np.zeros_like(folds), 0.75, "")
    assert "show each face at least twice" in info.value.message


def test_the_head_takes_only_the_faces_share_of_a_reading():
    rng = np.random.default_rng(4)
    head = Head(1.0, rng.normal(size=(6, 64)).astype(np.float32), np.zeros(6, np.float32))
    probs = rng.dirichlet(np.ones(13), size=5)
    emb = rng.normal(size=(5, 64))
    out = head.adjust(probs, emb, [0, 1, 2, 3, 4, 5])
    assert np.allclose(out[:, 6:], probs[:, 6:])  # the dots and "not a die" as they were
    assert np.allclose(out[:, :6].sum(1), probs[:, :6].sum(1))
    # the classifier itself: scale 1, no weights, no bias
    same = Head(1.0, np.zeros((6, 64), np.float32), np.zeros(6, np.float32))
    assert np.allclose(same.adjust(probs, emb, list(range(6))), probs, atol=1e-6)


def test_a_taught_set_is_saved_whole_and_read_back(tmp_path):
    rng = np.random.default_rng(5)
    probs, emb, labels, folds = shows(rng, confuse=0.8)
    found = teach_set("logo", one_show_each(probs, emb), labels, folds, 0.75, MODEL)
    path = tmp_path / "dice" / "logo.json"
    found.save(path)
    back = TaughtSet.from_json(json.loads(path.read_text()))
    assert back.name == "logo" and back.model == MODEL
    assert back.figures == found.figures
    for file, head in found.heads.items():
        assert back.heads[file].scale == pytest.approx(head.scale, abs=1e-6)
        assert np.allclose(back.heads[file].weights, head.weights, atol=1e-6)
    assert list(tmp_path.glob("dice/.*")) == []  # no part file left


def test_a_taught_set_that_cannot_be_saved_leaves_the_one_taught_before(tmp_path):
    rng = np.random.default_rng(6)
    probs, emb, labels, folds = shows(rng, confuse=0.8)
    found = teach_set("logo", one_show_each(probs, emb), labels, folds, 0.75, MODEL)
    path = tmp_path / "logo.json"
    path.write_text("the set taught before")
    (tmp_path / ".logo.json.part").symlink_to("/dev/full")  # a disk with no room left
    with pytest.raises(StorageError) as info:
        found.save(path)
    assert info.value.message.startswith(f"could not save the taught set 'logo' to {path} (No")
    assert path.read_text() == "the set taught before"

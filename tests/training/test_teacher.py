"""models/recipe/train.py's --teacher: a classifier stage whose real crops also learn another
classifier's outputs (distillation), so that what that one read is kept.

Training only: it needs the `train` extra (PyTorch), which `make test-training` installs.
"""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")


def nets(train, seeds=(0, 1)):
    out = []
    for seed in seeds:
        torch.manual_seed(seed)
        out.append(train.Faces(len(train.CLASSES)).eval())
    return out


def test_a_student_that_reads_as_its_teacher_owes_it_nothing(train):
    teacher, other = nets(train)
    x = torch.rand(8, 3, 48, 48)
    same = train.distilled(teacher(x)[0], teacher, x)
    assert abs(same.item()) < 1e-5
    assert train.distilled(other(x)[0], teacher, x).item() > 1e-3


def test_distillation_moves_the_student_towards_the_teacher_and_leaves_the_teacher(train):
    teacher, student = nets(train)
    before = {k: v.clone() for k, v in teacher.state_dict().items()}
    x = torch.rand(16, 3, 48, 48)
    opt = torch.optim.SGD(student.parameters(), lr=0.5)
    start = train.distilled(student(x)[0], teacher, x).item()
    for _ in range(20):
        loss = train.distilled(student(x)[0], teacher, x)
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert train.distilled(student(x)[0], teacher, x).item() < start / 2
    assert all(torch.equal(before[k], v) for k, v in teacher.state_dict().items())


def test_a_teacher_that_is_not_a_faces_file_is_named(train, tmp_path):
    with pytest.raises(SystemExit, match=r"--teacher .*gone.pt: no such file"):
        train.load_teacher(tmp_path / "gone.pt", "small")
    torch.manual_seed(0)
    torch.save(
        train.Faces(len(train.CLASSES), train.FACES_WIDTHS["medium"]).state_dict(),
        tmp_path / "medium.pt",
    )
    with pytest.raises(SystemExit, match="not this recipe's classifier at width 'small'"):
        train.load_teacher(tmp_path / "medium.pt", "small")
    teacher = train.load_teacher(tmp_path / "medium.pt", "medium")
    assert not teacher.training
    assert not any(p.requires_grad for p in teacher.parameters())


def test_a_teacher_reads_each_real_crop_before_its_extra_blur(train, monkeypatch):
    """With --blur-faces, the stage learns the blurred crop's label but the teacher's reading
    of the crop seen clearly: what the shipped classifier reads on a die it can see."""
    rng = np.random.default_rng(0)
    crops = [(rng.integers(0, 256, (48, 48, 3), dtype=np.uint8), k) for k in range(3)]
    photo = rng.integers(0, 256, (200, 200, 3), dtype=np.uint8)
    dice = [(photo, (60.0, 60.0, 120.0, 120.0), 2, 0.1)]
    negs = [(rng.integers(0, 256, (48, 48, 3), dtype=np.uint8), len(train.CLASSES) - 1)]
    # the extra blur made visible: a blurred crop is all black
    monkeypatch.setattr(train, "blurred_again", lambda rng, crop: np.zeros_like(crop))
    student_saw, teacher_saw = [], []

    class Seen(train.Faces):
        def __init__(self, *args, kept=student_saw):
            super().__init__(*args)
            self.kept = kept

        def forward(self, x):
            self.kept.append(x.detach().clone())
            return super().forward(x)

    teacher = Seen(len(train.CLASSES), kept=teacher_saw).eval()
    monkeypatch.setattr(train, "Faces", Seen)
    for share in (1.0, 0.0):
        student_saw.clear()
        teacher_saw.clear()
        train.train_faces(crops, (dice, negs), 1, lambda *_: None, teacher=teacher, blur=share)
        (student,), (shown,) = student_saw, teacher_saw
        real = student[round(train.BATCH * 0.5) :]
        assert shown.shape == real.shape
        if share:
            assert not real.any()  # the stage saw every crop blurred ...
            assert all(crop.any() for crop in shown)  # ... the teacher none of them
        else:
            assert torch.equal(shown, real)  # no blur: the teacher reads what the stage reads

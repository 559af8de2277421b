"""`companion bench numerals`: rendered numeral dice in fonts the classifier never learned."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from companion.cli.main import main
from companion.training.fonts import NumeralFonts
from companion.vision.reader import model_dir

pytestmark = pytest.mark.integration


def test_the_numerals_benchmark_reads_dice_in_each_font_family(monkeypatch):
    from companion.cli.bench.numerals import KINDS, bench_numerals

    drawn = []
    draw = NumeralFonts.draw
    monkeypatch.setattr(NumeralFonts, "draw", lambda self, *a: drawn.append(self) or draw(self, *a))
    dejavu = Path("/usr/share/fonts/truetype/dejavu")  # fonts-dejavu-core: make test installs it
    fonts = [dejavu / "DejaVuSans-Bold.ttf", dejavu / "DejaVuSans.ttf", dejavu / "DejaVuSerif.ttf"]
    out = bench_numerals(NumeralFonts(fonts), seeds=2)
    assert out["fonts"] == {"files": 3, "families": 2}
    assert sorted(out["families"]) == ["DejaVuSans", "DejaVuSerif"]
    for counts in [out["all"], out["opencv_faces"], *out["families"].values()]:
        assert sum(counts[k] for k in KINDS[1:]) == counts["dice"]
    assert out["all"]["dice"] == 24 and out["opencv_faces"]["dice"] == 12
    assert len(drawn) == 24 and len(set(map(id, drawn))) == 2  # each family's own fonts
    # the faces the classifier learned numerals from are read: the benchmark reads dice
    assert out["opencv_faces"]["right"] >= 10


def test_the_third_classifier_reads_numerals_in_fonts_the_first_two_never_learned(tmp_path):
    """The shipped card's last opinion (dice-opinion2.onnx, trained with numerals in many
    fonts, DejaVu among them) reads numerals the first two leave unsure: the same dice read
    with the card's first opinion only are read right less often, and never wrong less."""
    from companion.cli.bench.numerals import bench_numerals

    dejavu = Path("/usr/share/fonts/truetype/dejavu")  # fonts-dejavu-core: make test installs it
    names = ["Sans", "Sans-Bold", "Serif", "Serif-Bold", "SansMono"]
    fonts = NumeralFonts([dejavu / f"DejaVu{name}.ttf" for name in names])
    shutil.copytree(model_dir(), tmp_path / "models", ignore=shutil.ignore_patterns("__*"))
    card = json.loads((tmp_path / "models" / "dice.json").read_text())
    assert [o["file"] for o in card["second_opinion"]] == [
        "dice-opinion.onnx",
        "dice-opinion2.onnx",
    ]
    card["second_opinion"] = card["second_opinion"][:1]
    (tmp_path / "models" / "dice.json").write_text(json.dumps(card))
    shipped = bench_numerals(fonts, seeds=3)["all"]
    first_only = bench_numerals(fonts, tmp_path / "models", seeds=3)["all"]
    assert shipped["dice"] == first_only["dice"] == 54
    assert shipped["right"] >= first_only["right"] + 5, (shipped, first_only)
    assert shipped["wrong"] <= first_only["wrong"], (shipped, first_only)


def test_the_veto_makes_numerals_misread_with_confidence_unsure(tmp_path):
    """The shipped card's veto (dice-opinion2.onnx read again on every face read with
    confidence): numerals in fonts the first classifier never learned, which it reads as
    another face with confidence (a 5 as a 3, a 6 as a 5), are reported unsure instead, for a
    player to confirm; the same dice read without the veto are wrong with confidence at least
    twice as often, and read right no more often."""
    from companion.cli.bench.numerals import bench_numerals

    dejavu = Path("/usr/share/fonts/truetype/dejavu")  # fonts-dejavu-core: make test installs it
    names = ["Sans", "Sans-Bold", "Serif", "Serif-Bold", "SansMono"]
    fonts = NumeralFonts([dejavu / f"DejaVu{name}.ttf" for name in names])
    shutil.copytree(model_dir(), tmp_path / "models", ignore=shutil.ignore_patterns("__*"))
    card = json.loads((tmp_path / "models" / "dice.json").read_text())
    assert card["veto"] == {"file": "dice-opinion2.onnx", "looks": "upright", "confidence": 0.7}
    del card["veto"]
    (tmp_path / "models" / "dice.json").write_text(json.dumps(card))
    shipped = bench_numerals(fonts, seeds=3)["all"]
    no_veto = bench_numerals(fonts, tmp_path / "models", seeds=3)["all"]
    assert shipped["dice"] == no_veto["dice"] == 54
    assert no_veto["wrong"] >= 4, no_veto  # there is something to veto
    assert 2 * shipped["wrong"] <= no_veto["wrong"], (shipped, no_veto)
    assert shipped["right"] >= no_veto["right"] - 2, (shipped, no_veto)
    assert shipped["unsure"] > no_veto["unsure"], (shipped, no_veto)


def test_the_numerals_benchmark_says_what_is_wrong_with_its_fonts(tmp_path, capsys):
    assert main(["bench", "numerals"]) == 2
    assert "pass --fonts with a list of font files" in capsys.readouterr().err
    listing = tmp_path / "fonts.txt"
    listing.write_text(f"# a comment\n{tmp_path / 'gone.ttf'}\n")
    assert main(["bench", "numerals", "--fonts", str(listing)]) == 2
    err = capsys.readouterr().err
    assert "1 of its 1 font files are missing, first" in err and "gone.ttf" in err
    (tmp_path / "gone.ttf").write_text("not a font")
    assert main(["bench", "numerals", "--fonts", str(listing)]) == 2
    assert "gone.ttf is not a TrueType or OpenType font file" in capsys.readouterr().err


def test_teaching_a_font_s_numeral_dice_reads_them_no_worse():
    """`bench teach --fonts`: each family's numeral dice read before and after its set is
    taught from shows of their own (teaching is refused, and the dice read as before, where
    it would not read the shows better)."""
    from companion.cli.bench.numerals import KINDS, bench_numeral_sets

    dejavu = Path("/usr/share/fonts/truetype/dejavu")  # fonts-dejavu-core: make test installs it
    fonts = NumeralFonts([dejavu / "DejaVuSerif.ttf", dejavu / "DejaVuSans.ttf"])
    out = bench_numeral_sets(fonts, seeds=3)
    assert sorted(out["families"]) == ["DejaVuSans", "DejaVuSerif"]
    for family in out["families"].values():
        before, after = family["before"], family["after"]
        assert before["dice"] == after["dice"] == 18
        assert sum(after[k] for k in KINDS[1:]) == after["dice"]
        if "not_taught" in after:
            assert after["not_taught"] == "vision/teach-no-gain"
            assert {k: after[k] for k in KINDS} == before
    assert out["after"]["right"] >= out["before"]["right"]
    assert out["after"]["wrong"] <= out["before"]["wrong"]

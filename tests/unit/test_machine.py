"""What `companion bench` says of the machine it measured on."""

import json

from companion.cli.bench.machine import machine

# /proc/cpuinfo's last lines on a Pi 4 (64-bit Raspberry Pi OS): no model name, and the
# board named only in the device tree (its "Hardware" line says BCM2835 on every Pi)
PI4_CPUINFO = """processor\t: 0
BogoMIPS\t: 108.00
Features\t: fp asimd evtstrm crc32 cpuid
CPU implementer\t: 0x41
CPU part\t: 0xd08

processor\t: 1
Features\t: fp asimd evtstrm crc32 cpuid
Revision\t: c03114
"""
X86_CPUINFO = """processor\t: 0
model name\t: Intel(R) Core(TM) i5-8250U CPU @ 1.60GHz
flags\t\t: fpu sse4_2 avx2 fma
"""


def test_a_pi_is_named_by_its_board_and_its_vector_instructions(tmp_path):
    board = tmp_path / "model"
    board.write_bytes(b"Raspberry Pi 4 Model B Rev 1.4\x00")
    (tmp_path / "cpuinfo").write_text(PI4_CPUINFO)
    seen = machine(board=board, cpuinfo=tmp_path / "cpuinfo")
    assert seen["board"] == "Raspberry Pi 4 Model B Rev 1.4"
    assert seen["processor"] is None
    assert seen["simd"] == ["asimd"]  # a Pi 4's A72 has no dot product (a Pi 5's has)


def test_a_pc_is_named_by_its_processor(tmp_path):
    (tmp_path / "cpuinfo").write_text(X86_CPUINFO)
    seen = machine(board=tmp_path / "none", cpuinfo=tmp_path / "cpuinfo")
    assert seen["board"] is None
    assert seen["processor"] == "Intel(R) Core(TM) i5-8250U CPU @ 1.60GHz"
    assert seen["simd"] == ["avx2"]


def test_what_cannot_be_read_is_none_and_the_rest_is_still_said(tmp_path):
    seen = machine(board=tmp_path / "none", cpuinfo=tmp_path / "none")
    assert (seen["board"], seen["processor"], seen["simd"]) == (None, None, None)
    assert seen["cores"] >= 1 and seen["onnxruntime"] and seen["numpy"]
    json.dumps(seen)  # printed with the figures


def test_every_benchmark_prints_the_machine_beside_its_figures(capsys):
    from companion.cli.main import main

    assert main(["bench", "engine", "--repeat", "3"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"]["first-island"]["apply_one_action_ms"] > 0
    assert out["machine"] == machine()

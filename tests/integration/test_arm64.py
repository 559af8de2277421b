"""The dice reader on a Raspberry Pi's own CPUs, emulated.

There is no Pi here. `make test` builds ``.arm64/`` (``tests/arm64/root.sh``): Debian
Bookworm's arm64 Python 3.11 and numpy (1.24), which 64-bit Raspberry Pi OS Bookworm is
built on, and the aarch64 wheels deploy/install.sh has pip install on a Pi: held to that
numpy (deploy/constraints.sh), so OpenCV 4.11 where .venv may have a later one, the rest at
.venv's versions; the tests add this work tree's own wheel.
qemu-aarch64 runs it as a Pi Zero 2 W's Cortex-A53, a Pi 4's Cortex-A72 and a Pi 5's
Cortex-A76: the instructions each core has, not its speed, so no timing is taken here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

REPO = Path(__file__).parents[2]
ARM64 = REPO / ".arm64"
GOLDEN = sorted((REPO / "tests" / "data" / "dice").glob("*.jpg"))
CPUS = {"pi-zero-2-w": "cortex-a53", "pi-4": "cortex-a72", "pi-5": "cortex-a76"}


def _env(cwd: Path, path: list[Path] = ()) -> dict:
    env = {**os.environ, "COMPANION_CONFIG": str(cwd / "none.toml")}
    if path:
        env["PYTHONPATH"] = os.pathsep.join(map(str, path))
    return env


def run(cmd: list[str], cwd: Path, path: list[Path] = ()) -> subprocess.CompletedProcess:
    env = _env(cwd, path)
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)


def _pi_command(cpu: str, args: list[str], cwd: Path, first: list[Path] = ()):
    """``python3.11 -P ARGS`` of the arm64 root, on an emulated ``cpu``, with this work
    tree's wheel (``cwd / "project"``) and the root's site-packages: the command and the
    module path."""
    if not (ARM64 / "root").is_dir():
        pytest.fail(f"no arm64 root in {ARM64}: run `make test`, which builds it")
    root = ARM64 / "root"
    python = [str(root / "usr" / "bin" / "python3.11"), "-P"]
    command = ["qemu-aarch64", "-cpu", cpu, "-L", str(root), *python, *args]
    return command, [*first, cwd / "project", ARM64 / "site"]


def on_pi(cpu: str, args: list[str], cwd: Path, first: list[Path] = ()):
    """``_pi_command`` run to its end."""
    command, path = _pi_command(cpu, args, cwd, first)
    return run(command, cwd, path)


def on_pi_4(code: str, cwd: Path) -> str:
    """What Python ``code`` prints on the emulated Pi 4 (``on_pi``); it must succeed."""
    done = on_pi(CPUS["pi-4"], ["-c", code], cwd)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def dice(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


@pytest.fixture(scope="module")
def here(tmp_path_factory, wheel) -> tuple[Path, list[dict]]:
    """A working folder with this work tree's wheel installed in ``project``, and the
    golden photos read on this machine."""
    cwd = tmp_path_factory.mktemp("arm64")
    (cwd / "none.toml").write_text("")  # no config: the shipped defaults
    pip = [sys.executable, "-m", "pip", "--quiet", "install", "--no-deps"]
    put = run([*pip, "--target", str(cwd / "project"), str(wheel)], cwd)
    assert put.returncode == 0, put.stderr
    done = run([sys.executable, "-m", "companion", "read", "--json", *map(str, GOLDEN)], cwd)
    assert done.returncode == 0, done.stderr
    return cwd, dice(done.stdout)


# The device's own loop, as the Pi 4 runs it: a rendered roll replayed through the watcher,
# the settler and the empty table (``test_the_camera_loop_reads_a_roll_...``).
CAMERA_LOOP = (
    "import json; from companion.cli.bench.watch import bench_watch; "
    "print(json.dumps(bench_watch(rest_frames=12)))"
)


@pytest.fixture(scope="module")
def emulated(here) -> dict[str, subprocess.CompletedProcess]:
    """The long emulated runs, all at once (they are independent, and the machine's cores
    share them out): the golden photos read on each core, by its name, and the camera loop
    on the Pi 4's, as "camera loop"."""
    cwd, _ = here
    read = ["-m", "companion", "read", "--json", *map(str, GOLDEN)]
    runs = [(cpu, cpu, read) for cpu in CPUS.values()]
    runs.append(("camera loop", CPUS["pi-4"], ["-c", CAMERA_LOOP]))
    started = {}
    for name, cpu, args in runs:
        command, path = _pi_command(cpu, args, cwd)
        started[name] = subprocess.Popen(
            command,
            cwd=cwd,
            env=_env(cwd, path),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    done = {}
    for name, process in started.items():
        out, err = process.communicate(timeout=900)
        done[name] = subprocess.CompletedProcess(process.args, process.returncode, out, err)
    return done


@pytest.mark.parametrize("cpu", CPUS.values(), ids=CPUS.keys())
def test_a_pi_reads_the_golden_photos_as_this_machine_does(cpu, here, emulated):
    _, expected = here
    done = emulated[cpu]
    assert done.returncode == 0, done.stderr[-2000:]
    read = dice(done.stdout)
    assert [r["image"] for r in read] == [e["image"] for e in expected]
    for r, e in zip(read, expected, strict=True):
        # The same dice in the same order, with the same values. Both models compute the
        # same integers on x86 and ARM, but onnxruntime's kernels there turn each layer's
        # sums back into 8 bits (a float scale, then rounding) a little differently: a heat
        # or a size may move by one step, so a box edge by a pixel. The classifier is held
        # to the same crop: where a box moved, this machine reads the core's box, and the
        # confidence must agree within 0.02: the classifier's integers turn back into
        # probabilities in floating point, whose last bits differ, and the Pi's OpenCV 4.11
        # shrinks a crop a little differently from a later one here (OpenCV 5.0: up to
        # 0.011 apart on these photos; the same OpenCV on both: within 0.01).
        assert [d["value"] for d in r["dice"]] == [d["value"] for d in e["dice"]], r["image"]
        for a, b in zip(r["dice"], e["dice"], strict=True):
            moved = max(abs(x - y) for x, y in zip(a["box"], b["box"], strict=True))
            assert moved <= 1, (r["image"], a, b)
            if moved:
                (b,) = here_at(r["image"], a["box"])
            assert b["value"] == a["value"], (r["image"], a, b)
            assert abs(a["confidence"] - b["confidence"]) <= 0.02, (r["image"], a, b)


def here_at(image: str, box: list[int]) -> list[dict]:
    """This machine's reading of the die in ``box`` of ``image`` (the shipped reader)."""
    import cv2

    from companion.vision.reader import DiceReader

    return [d.to_json() for d in DiceReader().read_boxes(cv2.imread(image), [tuple(box)])]


def test_the_emulated_pi_is_aarch64_with_the_pinned_onnxruntime(here):
    """... and with the system's numpy, Debian's 1.24 (the one apt's picamera2 was built
    with), which holds OpenCV to 4.11 (deploy/constraints.sh)."""
    cwd, _ = here
    code = (
        "import platform, onnxruntime, numpy, cv2; print(platform.machine(), "
        "onnxruntime.__version__, numpy.__version__, numpy.__file__, cv2.__version__)"
    )
    printed = on_pi_4(code, cwd)
    with (REPO / "pyproject.toml").open("rb") as f:
        needs = tomllib.load(f)["project"]["dependencies"]
    pinned = next(d.split("==")[1] for d in needs if d.startswith("onnxruntime=="))
    machine, onnxruntime, numpy, where, opencv = printed.split()
    assert (machine, onnxruntime) == ("aarch64", pinned)
    debian = ARM64 / "root" / "usr" / "lib" / "python3" / "dist-packages"
    assert numpy.startswith("1.") and Path(where).is_relative_to(debian), where
    assert opencv.startswith("4.11."), opencv


def test_the_camera_loop_reads_a_roll_with_the_pis_numpy_and_opencv(emulated):
    """The device's own loop (a rendered roll replayed through the watcher, the settler and
    the empty table) on the Pi's numpy 1.24 and OpenCV 4.11: one roll, read right, and read
    right again with its faces read from a main stream twice the size (I420, as the Pi
    camera gives it)."""
    done = emulated["camera loop"]
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout.splitlines()[-1])
    assert (out["rolls_reported"], out["rolls_read_right"]) == (1, 1)
    assert out["with_main_stream"]["rolls_read_right"] == 1  # and with the main stream's faces


def test_a_missing_usb_camera_is_said_so_with_the_pis_opencv(here):
    """OpenCV 4.11, the Pi's, keeps its log level elsewhere than 5.0 does: opening a camera
    that is not there must still end in our message, not in an AttributeError."""
    cwd, _ = here
    code = (
        "from companion.vision.camera import CameraError, CaptureCamera\n"
        "try:\n    CaptureCamera(99)\nexcept CameraError as e:\n    print(e)\n"
    )
    assert "no camera at usb:99 (/dev/video99): is it plugged in" in on_pi_4(code, cwd)


def test_the_emulated_pi_4_catches_the_onnxruntime_that_dies_on_one(here):
    """onnxruntime 1.21.0 dies with "Illegal instruction" on a Pi 4 (the reason for the pin
    in pyproject.toml): the emulated Cortex-A72 must see that, or the tests above prove
    nothing about a Pi 4. The Cortex-A76 has the instructions, so there it reads."""
    cwd, expected = here
    old = [ARM64 / "ort-1.21.0"]
    code = (
        "import sys, onnxruntime; print(onnxruntime.__version__, flush=True); "
        "from companion.cli.main import main; sys.exit(main(sys.argv[1:]))"
    )
    args = ["-c", code, "read", "--json", str(GOLDEN[0])]
    pi4 = on_pi(CPUS["pi-4"], args, cwd, first=old)
    assert pi4.returncode != 0
    assert "Illegal instruction" in pi4.stderr  # (it dies on importing onnxruntime)
    assert "dice" not in pi4.stdout
    pi5 = on_pi(CPUS["pi-5"], args, cwd, first=old)
    assert pi5.returncode == 0, pi5.stderr[-2000:]
    version, read = pi5.stdout.split("\n", 1)
    assert version == "1.21.0"  # the old build, not the pinned one
    assert [d["value"] for d in dice(read)[0]["dice"]] == [d["value"] for d in expected[0]["dice"]]

"""Which machine a benchmark ran on, printed beside its figures.

A figure means little without its machine: the same reader read a 640x640 frame in 23.7 ms
on one run on the development machine and 28.8 ms on another, and a Pi 4 is several times
slower than either. ``companion bench`` prints
this beside what it measures, so a figure sent from a Pi names the Pi.
"""

from __future__ import annotations

import os
import platform
from importlib import metadata
from pathlib import Path

# A Raspberry Pi names its board in its device tree ("Raspberry Pi 4 Model B Rev 1.4", no
# newline, a NUL at the end); /proc/cpuinfo's "Hardware" line says BCM2835 on every Pi.
BOARD = Path("/sys/firmware/devicetree/base/model")
CPUINFO = Path("/proc/cpuinfo")
PACKAGES = ("onnxruntime", "opencv-python-headless", "numpy")
# The vector instructions onnxruntime's 8-bit kernels run faster with, as /proc/cpuinfo names
# them (x86's "flags", ARM's "Features"): a Pi 5's Cortex-A76 has the dot product (asimddp),
# a Pi 4's A72 and a Zero 2 W's A53 do not.
SIMD = ("avx2", "avx512f", "avx512_vnni", "avx_vnni", "amx_int8", "asimd", "asimddp", "i8mm")


def machine(board: Path = BOARD, cpuinfo: Path = CPUINFO) -> dict:
    """The board or processor, the cores this process may use, the system, Python, and the
    versions of the packages the reader's speed depends on (None for one not installed)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count()
    info = _cpuinfo(cpuinfo)
    return {
        "board": _board(board),
        # an x86 machine's model name; an ARM board's /proc/cpuinfo gives only numbers
        "processor": info.get("model name"),
        "simd": _simd(info.get("flags") or info.get("Features")),
        "cores": cores,
        "system": f"{platform.system()} {platform.release()} {platform.machine()}",
        "python": platform.python_version(),
        **{name: _version(name) for name in PACKAGES},
    }


def _board(path: Path) -> str | None:
    """The board's name from the device tree (a Pi's model), or None where there is none."""
    try:
        return path.read_bytes().rstrip(b"\x00\n").decode("utf-8", "replace") or None
    except OSError:
        return None


def _cpuinfo(path: Path) -> dict[str, str]:
    """Each key of ``path`` (/proc/cpuinfo) with its value on the first processor that gives
    one; empty where it cannot be read."""
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return {}
    info: dict[str, str] = {}
    for line in lines:
        key, _, value = line.partition(":")
        if value.strip():
            info.setdefault(key.strip(), value.strip())
    return info


def _simd(listed: str | None) -> list[str] | None:
    """Which of SIMD a processor's listed instructions hold, or None with no list."""
    if listed is None:
        return None
    have = set(listed.split())
    return [name for name in SIMD if name in have]


def _version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None

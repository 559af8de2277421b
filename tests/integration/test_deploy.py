"""Deployment: the scripts pass shellcheck, the unit verifies, the wheel runs on its own,
and the installer is idempotent (run under a scratch root, without apt, users or systemd)."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.helpers import get_when_up

pytestmark = pytest.mark.integration
REPO = Path(__file__).parents[2]
SCRIPTS = [
    REPO / "deploy" / "install.sh",
    REPO / "deploy" / "constraints.sh",
    REPO / ".ci" / "run",
    REPO / "tests" / "arm64" / "root.sh",
]


def test_every_script_passes_shellcheck():
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        pytest.fail("shellcheck is missing: `make test` installs Debian's shellcheck package")
    r = subprocess.run(
        [shellcheck, "--severity=style", *map(str, SCRIPTS)], capture_output=True, text=True
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_systemd_unit_verifies(tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not on this machine")
    unit = (REPO / "deploy" / "companion.service").read_text()
    assert "ExecStart=/opt/companion/venv/bin/companion serve" in unit
    assert "Restart=on-failure" in unit and "User=companion" in unit
    assert "SupplementaryGroups=gpio video" in unit
    # verify checks the command exists: point it at this checkout's installed command
    here = Path(sys.executable).parent / "companion"
    (tmp_path / "companion.service").write_text(
        unit.replace("/opt/companion/venv/bin/companion", str(here))
    )
    r = subprocess.run(
        [analyze, "verify", str(tmp_path / "companion.service")], capture_output=True, text=True
    )
    problems = [line for line in (r.stdout + r.stderr).splitlines() if "companion.service" in line]
    assert r.returncode == 0 and not problems, r.stdout + r.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_wheel_carries_the_models_and_the_web_assets(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in (
        "companion/modelfiles/dice-detector.onnx",
        "companion/modelfiles/dice-faces.onnx",
        "companion/modelfiles/dice.json",
        "companion/webassets/templates/table.html",
        "companion/webassets/static/table.js",
        "companion/engine/schema.sql",
        "companion/games/first_island/island.json",
        "companion/games/first_island/templates/first_island/play.html",
        "companion/games/first_island/static/pages.js",
    ):
        assert needed in names, f"{needed} is not in the wheel"
    assert not any(n.startswith("companion/modelfiles/recipe") for n in names)


def test_the_wheel_ships_every_module_and_only_what_runs(wheel):
    """Every module of the package, and each game's pages (its templates and scripts), is in
    the wheel (packaging finds the packages: a new game ships with no change elsewhere),
    and nothing else but the models, their card's settings and the web assets: no model
    card, training recipe or notes go onto a Pi."""
    names = {n for n in zipfile.ZipFile(wheel).namelist() if ".dist-info/" not in n}
    source = {
        str(p.relative_to(REPO))
        for p in (REPO / "companion").rglob("*")
        if p.suffix in (".py", ".json", ".sql", ".html", ".js", ".css")
        and "__pycache__" not in p.parts
    }
    assert source <= names, f"missing from the wheel: {sorted(source - names)}"
    runs = (".py", ".onnx", ".json", ".sql", ".html", ".js", ".css", ".svg")
    assert [n for n in names if not n.endswith(runs)] == []
    assert not any(n.endswith(".md") for n in names)


def test_the_wheel_runs_doctor_and_the_demo_from_a_fresh_venv(wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = venv / "bin" / "pip"
    subprocess.run([str(pip), "install", "--quiet", str(wheel)], check=True, cwd=tmp_path)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["COMPANION_CONFIG"] = str(tmp_path / "config.toml")
    port = _free_port()
    (tmp_path / "config.toml").write_text(
        f'[storage]\ndata_dir = "{tmp_path / "data"}"\n[web]\nport = {port}\nmdns = false\n'
        "[gpio]\nmock = true\n"
    )
    where = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import companion; print(companion.__file__)"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        check=True,
    )
    assert str(venv) in where.stdout, "companion was imported from the source tree"
    doctor = subprocess.run(
        [str(venv / "bin" / "companion"), "doctor"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert "ok   models: dice models load" in doctor.stdout
    server = subprocess.Popen(
        [str(venv / "bin" / "companion"), "serve", "--demo", "--host", "127.0.0.1"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert "Table Companion" in get_when_up(f"http://127.0.0.1:{port}/", server)
    finally:
        server.terminate()
        out, _ = server.communicate(timeout=20)
    assert "demo replay" in out, out


def install_env(root, **more) -> dict:
    """The environment that runs deploy/install.sh into ``root`` instead of the system."""
    skip = {"SKIP_APT": "1", "SKIP_SYSTEMD": "1", "SKIP_USER": "1"}
    return {**os.environ, "COMPANION_ROOT": str(root), **skip, **more}


def test_install_script_is_idempotent_and_uninstall_keeps_the_games(wheel, tmp_path):
    root = tmp_path / "root"
    env = install_env(root)
    script = REPO / "deploy" / "install.sh"

    def install(*args):
        return subprocess.run(
            ["bash", str(script), *args], env=env, capture_output=True, text=True, timeout=600
        )

    first = install("--source", str(wheel))
    assert first.returncode == 0, first.stdout + first.stderr
    system = subprocess.run(["python3", "-c", "import numpy; print(numpy.__version__)"],
                            capture_output=True, text=True)  # fmt: skip
    if system.returncode == 0:  # the venv keeps it, as a Pi's keeps the numpy apt gave
        assert f"keeping the system's numpy {system.stdout.strip()}" in first.stdout
    config = root / "etc" / "companion" / "config.toml"
    assert 'source = "pi"' in config.read_text()
    # [vision] threads as `companion bench threads` measured and chose them on this machine
    chosen = re.search(r"\[vision\] threads = (\d+)$", first.stdout, re.M)
    assert chosen, first.stdout
    assert f"\nthreads = {chosen[1]}\n" in config.read_text()
    assert 1 <= int(chosen[1]) <= len(os.sched_getaffinity(0))
    assert (root / "etc" / "systemd" / "system" / "companion.service").exists()
    assert (root / "opt" / "companion" / "venv" / "bin" / "companion").exists()
    # `companion doctor` is a command on the PATH
    command = root / "usr" / "local" / "bin" / "companion"
    on_path = subprocess.run([command, "--help"], capture_output=True, text=True, timeout=60)
    assert on_path.returncode == 0 and "doctor" in on_path.stdout, on_path.stderr
    # a game and an edited config survive a second run (the upgrade path)
    (root / "var" / "lib" / "companion" / "games.db").write_bytes(b"keep me")
    config.write_text(config.read_text() + "\n# edited by hand\n")
    again = install("--source", str(wheel))
    assert again.returncode == 0, again.stdout + again.stderr
    assert "keeping the existing" in again.stdout
    assert config.read_text().endswith("# edited by hand\n")
    assert (root / "var" / "lib" / "companion" / "games.db").read_bytes() == b"keep me"
    gone = install("--uninstall")
    assert gone.returncode == 0, gone.stderr
    assert not (root / "opt" / "companion").exists() and not command.is_symlink()
    assert (root / "var" / "lib" / "companion" / "games.db").exists() and config.exists()
    purge = install("--uninstall", "--purge")
    assert purge.returncode == 0 and not (root / "var" / "lib" / "companion").exists()


@pytest.mark.parametrize(
    "numpy, opencv",
    [("1.24.2", "opencv-python-headless<4.12"), ("2.2.4", None)],
    ids=["bookworm", "numpy-2"],
)
def test_the_venv_is_held_to_the_numpy_apts_picamera2_was_built_with(numpy, opencv):
    """Over Bookworm's numpy 1.24 a current OpenCV would pull numpy 2 into the venv, and
    picamera2 (simplejpeg) would no longer import: the venv keeps the system's numpy, and
    over a numpy 1 the last OpenCV that runs on it (4.11.0.86 asks numpy>=1.23.5 on
    Python 3.11; 4.12 asks numpy>=2)."""
    made = subprocess.run(
        [REPO / "deploy" / "constraints.sh", numpy], capture_output=True, text=True, check=True
    )
    assert made.stdout.split("\n")[:-1] == [f"numpy=={numpy}", *([opencv] if opencv else [])]


def test_install_script_refuses_a_32_bit_system_before_changing_anything(tmp_path):
    # onnxruntime has no 32-bit ARM build: on a 32-bit Raspberry Pi OS pip would fail late
    # and obscurely. getconf is the one program faked here (it reports the user space's
    # word size; this machine's is 64).
    fake = tmp_path / "bin"
    fake.mkdir()
    getconf = fake / "getconf"
    getconf.write_text(
        '#!/bin/sh\n[ "$1" = LONG_BIT ] && { echo 32; exit 0; }\nexec /usr/bin/getconf "$@"\n'
    )
    getconf.chmod(0o755)
    root = tmp_path / "root"
    env = install_env(root, PATH=f"{fake}:{os.environ['PATH']}")
    done = subprocess.run(
        ["bash", str(REPO / "deploy" / "install.sh")],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "32-bit" in done.stderr and "Raspberry Pi OS Lite (64-bit)" in done.stderr
    assert not root.exists()  # nothing installed, nothing written

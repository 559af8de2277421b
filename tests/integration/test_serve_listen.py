"""`companion serve` says why it cannot listen, before the camera, pins or mDNS start; and
stops through its clean-up on SIGTERM, and keeps answering with many live pages left open."""

import json
import os
import signal
import socket
import subprocess
import sys
import urllib.request

import pytest

from companion.cli import main
from tests.helpers import get_when_up


@pytest.mark.parametrize("port", ["99999", "0", "-1", "eighty"])
def test_a_port_out_of_range_is_refused(config, capsys, port):
    # waitress would listen on 99999 as 34463, a port nobody was told of
    with pytest.raises(SystemExit) as info:
        main(["serve", "--port", port])
    assert info.value.code == 2
    assert f"--port: must be a number from 1 to 65535, not '{port}'" in capsys.readouterr().err


def test_a_port_in_use_is_named_and_nothing_starts(config, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        args = ["serve", "--host", "127.0.0.1", "--port", str(port), "--no-mdns"]
        assert main([*args, "--camera", "replay:/nonexistent@5"]) == 2
    out, err = capsys.readouterr()
    assert f"companion: port {port} is in use (is a companion already serving?" in err
    assert "pass --port with another port" in err
    # no join link, PIN or camera line: nothing was started for a server that is not up
    assert "serving on" not in out and "host PIN" not in out and "camera:" not in out


def test_an_address_of_another_machine_is_named(config, capsys):
    # 192.0.2.1 is kept for documentation (RFC 5737): never an address of this machine
    assert main(["serve", "--host", "192.0.2.1", "--port", "8000", "--no-mdns"]) == 2
    err = capsys.readouterr().err
    assert "companion: 192.0.2.1 is not an address of this machine: pass --host 0.0.0.0" in err


def test_sigterm_stops_serve_through_its_clean_up(tmp_path):
    # systemctl stop sends SIGTERM, which used to end the process at once, past its clean-up:
    # the LEDs left to the GPIO driver, the mDNS name advertised, the camera open.
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    (tmp_path / "c.toml").write_text(f'[storage]\ndata_dir = "{tmp_path / "data"}"\n')
    env = {**os.environ, "COMPANION_CONFIG": str(tmp_path / "c.toml")}
    cmd = [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--no-mdns"]
    server = subprocess.Popen(
        [*cmd, "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert get_when_up(f"http://127.0.0.1:{port}/api/games", server).startswith("[")
        server.send_signal(signal.SIGTERM)
        out, _ = server.communicate(timeout=30)
    finally:
        server.kill()
    assert server.returncode == 0, out
    assert "stopping: SIGTERM" in out and "stopped; every game is saved" in out


def test_live_pages_left_open_never_stop_serve_answering(tmp_path):
    # Phones that sleep or reload leave their live streams open, unread. Each held one of
    # waitress's 32 threads: with 40 open, nothing was answered any more.
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    (tmp_path / "c.toml").write_text(f'[storage]\ndata_dir = "{tmp_path / "data"}"\n')
    env = {**os.environ, "COMPANION_CONFIG": str(tmp_path / "c.toml")}
    cmd = [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--no-mdns"]
    server = subprocess.Popen(
        [*cmd, "--port", str(port)], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    streams = []
    try:
        assert get_when_up(f"http://127.0.0.1:{port}/api/games", server) == "[]\n"
        new_game = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/games",
            data=json.dumps({"players": 2}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(new_game, timeout=10) as r:
            game = json.load(r)["game_id"]
        ask = f"GET /api/games/{game}/events HTTP/1.1\r\nHost: companion\r\n\r\n".encode()
        for _ in range(40):
            page = socket.create_connection(("127.0.0.1", port), timeout=10)
            page.sendall(ask)
            streams.append(page)
        got = b""
        while b"retry: 1000" not in got:  # the newest page is live (or recv times out)
            got += streams[-1].recv(4096)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=10) as r:
            assert r.status == 200
    finally:
        for page in streams:
            page.close()
        server.terminate()
        server.communicate(timeout=30)

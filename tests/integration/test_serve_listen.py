"""`companion serve` as a process: why it cannot listen (said before the camera, pins or mDNS
start), its clean-up on SIGTERM, and what it refuses to be held up by (live pages left open,
bodies too big for a Pi)."""

import json
import signal
import socket
import urllib.error
import urllib.request

import pytest

from companion.cli.main import main
from companion.engine.store import EventStore
from tests.helpers import serving


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


@pytest.fixture
def served(tmp_path):
    """``companion serve`` as the service runs it: (port, process)."""
    with serving(tmp_path) as started:
        # the host's PIN, kept in the games database (the pages here act as the host)
        store = EventStore(tmp_path / "data" / "games.db")
        HOST_PIN[started[0]] = store.setting("host_pin", "")
        store.close()
        yield started


HOST_PIN: dict[int, str] = {}  # port -> the host PIN of the device serving there


def post(port: int, path: str, body: bytes) -> tuple[int, bytes]:
    headers = {"Content-Type": "application/json", "X-Host-Pin": HOST_PIN.get(port, "")}
    ask = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body, headers=headers)
    try:
        with urllib.request.urlopen(ask, timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def test_sigterm_stops_serve_through_its_clean_up(served):
    # systemctl stop sends SIGTERM, which used to end the process at once, past its clean-up:
    # the LEDs left to the GPIO driver, the mDNS name advertised, the camera open.
    _, server = served
    server.send_signal(signal.SIGTERM)
    out, _ = server.communicate(timeout=30)
    assert server.returncode == 0, out
    assert "stopping: SIGTERM" in out and "stopped; every game is saved" in out


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_serve_stops_at_once_with_live_pages_open(served, stop):
    # Each open page's stream held a thread until waitress gave up on it 5 s later: a
    # `systemctl restart` or a Ctrl-C kept the table waiting, and the log said "thread(s)
    # still running".
    port, server = served
    game = json.loads(
        post(
            port, "/api/games", b'{"game": "first-island", "players": 2, "options": {"s_card": 4}}'
        )[1]
    )["game_id"]
    ask = f"GET /api/games/{game}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as page:
        page.sendall(ask)
        got = b""
        while b"retry: 1000" not in got:  # the page is live
            got += page.recv(4096)
        server.send_signal(stop)
        while page.recv(4096):  # until serve lets the page go (it reconnects once serve is back)
            pass
        out, _ = server.communicate(timeout=30)
    assert "stopped; every game is saved" in out and "still running" not in out, out


def test_live_pages_left_open_never_stop_serve_answering(served):
    # Phones that sleep or reload leave their live streams open, unread. Each held one of
    # waitress's 32 threads: with 40 open, nothing was answered any more.
    port, _ = served
    game = json.loads(
        post(
            port, "/api/games", b'{"game": "first-island", "players": 2, "options": {"s_card": 4}}'
        )[1]
    )["game_id"]
    ask = f"GET /api/games/{game}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
    streams = []
    try:
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


def test_a_body_too_big_for_a_pi_is_refused_before_it_is_read(served):
    # A 50 MB body grew the server to 408 MB resident, more than a Pi Zero 2 W can give it.
    port, _ = served
    status, said = post(
        port,
        "/api/games",
        json.dumps({"game": "first-island", "players": 2, "x": "a" * 70_000}).encode(),
    )
    assert status == 413 and json.loads(said)["error"] == "request/too_large"
    with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
        # 5 MB announced: waitress answers from the headers, before a byte of it is taken in
        client.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: companion\r\nContent-Type: application/json\r\n"
            b"Content-Length: 5000000\r\n\r\n" + b" " * 1000
        )
        said = client.recv(4096)
    assert said.startswith(b"HTTP/1.1 413 Request Entity Too Large"), said
    assert (
        post(
            port, "/api/games", b'{"game": "first-island", "players": 2, "options": {"s_card": 4}}'
        )[0]
        == 201
    )
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=10) as r:
        assert len(json.load(r)) == 1  # nothing else was made


def test_the_join_link_uses_the_address_phones_can_reach():
    from companion.device.lan import lan_addresses, ranked

    # eth0 on a cable to no DHCP server took 169.254.x.x before the Wi-Fi's address
    assert ranked(["127.0.0.1", "169.254.10.3", "192.168.1.20", "10.0.0.5"]) == [
        "192.168.1.20",
        "10.0.0.5",
        "169.254.10.3",
        "127.0.0.1",
    ]
    assert lan_addresses()[-1].startswith("127.") or "127.0.0.1" not in lan_addresses()

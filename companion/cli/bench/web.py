"""``companion bench web``: delivery latency of live updates to many open pages.

A real waitress server in this process, N clients each holding the Server-Sent
Events stream open, and a stream of actions (a roll, then the host's undo, again
and again). The latency is from just before an action is sent until each client
has read its update.
"""

from __future__ import annotations

import http.client
import json
import logging
import statistics
import tempfile
import threading
import time
from pathlib import Path

from companion.device.serve import DEMO_GAME
from companion.engine.game import get_game
from companion.engine.store import EventStore
from companion.web import create_app

PIN = "0000"


def _post(port: int, path: str, body: dict) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request(
        "POST", path, json.dumps(body), {"Content-Type": "application/json", "X-Host-Pin": PIN}
    )
    resp = conn.getresponse()
    data = json.loads(resp.read())
    conn.close()
    if resp.status >= 400:
        raise RuntimeError(f"{path}: {resp.status} {data}")
    return data


def _client(
    port: int,
    game_id: str,
    got: dict[int, list[float]],
    ready: threading.Event,
    lock: threading.Lock,
) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", f"/api/games/{game_id}/events")
    resp = conn.getresponse()
    ready.set()
    try:
        while True:
            line = resp.fp.readline()
            if not line:
                return
            if line.startswith(b"data: "):
                now = time.perf_counter()
                seq = json.loads(line[6:])["seq"]
                with lock:
                    got.setdefault(seq, []).append(now)
    except OSError:
        return
    finally:  # else the socket is left to the garbage collector (a ResourceWarning, later)
        conn.close()


def bench_web(clients: int = 12, actions: int = 100) -> dict:
    """``actions`` moves (a roll, then its undo, in turn) posted to a real server while
    ``clients`` pages follow the game's live stream: how long each took to reach each
    page."""
    from waitress.server import create_server

    with tempfile.TemporaryDirectory() as tmp:
        store = EventStore(Path(tmp) / "bench.db")
        app = create_app({"HOST_PIN": PIN}, store=store)
        sockets: dict = {}  # the server's sockets, so that its loop can close them all
        server = create_server(app, map=sockets, host="127.0.0.1", port=0, threads=clients + 8)
        loop = threading.Thread(target=server.run, daemon=True)
        loop.start()
        port = server.effective_port
        options = dict(get_game(DEMO_GAME).demo_options)  # a game whose dice are wanted now
        made = _post(port, "/api/games", {"game": DEMO_GAME, "players": 2, "options": options})
        game_id, dice = made["game_id"], made["dice"]
        got: dict[int, list[float]] = {}
        lock = threading.Lock()
        for _ in range(clients):
            ready = threading.Event()
            threading.Thread(
                target=_client, args=(port, game_id, got, ready, lock), daemon=True
            ).start()
            ready.wait(10)
        time.sleep(0.2)
        latencies: list[float] = []
        for i in range(actions):
            latencies.extend(_delivered(port, game_id, i, clients, got, lock, dice))
        _stop(loop, sockets)
        store.close()
    return _summary(latencies, clients, actions)


def _delivered(
    port: int, game_id: str, i: int, clients: int, got: dict, lock, dice: dict
) -> list[float]:
    """Post the ``i``th move (a roll of the game's ``dice`` when ``i`` is even, an undo when
    odd) and wait up to 5 s for the ``clients`` pages to get it: the ms it took to reach
    each page that did."""
    sent = time.perf_counter()
    if i % 2 == 0:
        faces = sorted(int(f) for f in dice["faces"])
        values = [faces[(i // 2 + d) % len(faces)] for d in range(dice["count"])]
        seq = _post(
            port,
            f"/api/games/{game_id}/actions",
            {"action": {"type": "dice_rolled", "values": values}},
        )["seq"]
    else:
        seq = _post(port, f"/api/games/{game_id}/undo", {})["seq"]
    deadline = time.perf_counter() + 5
    while time.perf_counter() < deadline:
        with lock:
            if len(got.get(seq, ())) >= clients:
                break
        time.sleep(0.0005)
    with lock:
        arrivals = list(got.get(seq, ()))
    return [(t - sent) * 1000 for t in arrivals]


def _stop(loop: threading.Thread, sockets: dict) -> None:
    """Stop the server whose loop is ``loop`` and whose sockets are in ``sockets``."""
    from waitress.wasyncore import close_all

    # Open streams are still being written to as the server stops: keep the noise out.
    logging.getLogger("waitress").setLevel(logging.CRITICAL)
    # Stopped without touching a socket the loop may be waiting on: a socket closed from
    # this thread while the loop waits on it in select() fails there (EBADF), an uncaught
    # error in the server's thread. Nor by its trigger: a write to its pipe once failed
    # with EBADF in CI (something else in the process had closed that descriptor). With
    # its map empty the loop ends at its next turn (select waits a second at most); then
    # its sockets are closed here, and the clients read the end of their streams.
    dispatchers = dict(sockets)
    sockets.clear()
    loop.join(10)
    close_all(dispatchers)


def _summary(latencies: list[float], clients: int, actions: int) -> dict:
    """The figures of ``bench web``: deliveries, those missing, and their percentiles."""
    # Percentiles of the deliveries measured, taken inclusively so none is past the slowest;
    # with every delivery missing (a figure too) they are none.
    q = (
        statistics.quantiles(latencies, n=20, method="inclusive")
        if len(latencies) > 1
        else [None] * 19
    )
    return {
        "clients": clients,
        "actions": actions,
        "deliveries": len(latencies),
        "missing": clients * actions - len(latencies),
        "latency_ms_p50": round(statistics.median(latencies), 2) if latencies else None,
        "latency_ms_p95": None if q[18] is None else round(q[18], 2),
        "latency_ms_max": round(max(latencies), 2) if latencies else None,
        "target_ms": 200,
    }

"""``companion serve``: the scoreboard behind a production WSGI server (waitress)."""

from __future__ import annotations

import fcntl
import socket
import struct
from pathlib import Path

from companion.engine.store import EventStore

# One thread per open page (live updates hold a connection each): 12 phones, a
# table view, and room for requests while they are all connected.
THREADS = 32


def lan_addresses() -> list[str]:
    """IPv4 addresses of this machine's interfaces, loopback last (Linux; no traffic sent)."""
    found: list[str] = []
    try:
        names = [name for _, name in socket.if_nameindex()]
    except OSError:
        names = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for name in names:
            try:
                packed = fcntl.ioctl(s.fileno(), 0x8915,  # SIOCGIFADDR
                                     struct.pack("256s", name[:15].encode()))
            except OSError:
                continue
            found.append(socket.inet_ntoa(packed[20:24]))
    found.sort(key=lambda ip: ip.startswith("127."))
    return found or ["127.0.0.1"]


def ensure_demo_game(store: EventStore) -> str:
    """The unfinished demo game, or a new 2-player First Island game."""
    from companion.engine.session import Session

    for record in store.games():
        if not record.finished and record.game == "first-island":
            return record.game_id
    return Session.create(store, "first-island", 2, {"variant": "easy"}).game_id


def print_qr(url: str) -> None:
    """The join link as a QR code in the terminal (phones scan it off the screen)."""
    import segno

    segno.make(url, error="m").terminal(compact=True, border=2)


def serve(host: str, port: int, database: Path, *, demo: bool = False,
          mdns: bool = True) -> None:
    from waitress import serve as waitress_serve

    from companion.mdns import advertise
    from companion.web import create_app

    store = EventStore(database)
    urls = [f"http://{ip}:{port}/" for ip in lan_addresses()]
    # Phones often cannot resolve .local names: the join link carries the IP address.
    app = create_app({"DATABASE": str(database), "DEMO": demo,
                      "JOIN_BASE": urls[0].rstrip("/")}, store=store)
    join = urls[0]
    if demo:
        game_id = ensure_demo_game(store)
        urls = [f"{u}table/{game_id}" for u in urls]
        join = f"{join}play/{game_id}"
    print(f"Table Companion is serving on {host}:{port} (games in {database})")
    for u in urls:
        print(f"  open {u}")
    print(f"  phones: scan this or open {join}")
    print_qr(join)
    print(f"  host PIN: {app.config['HOST_PIN']}", flush=True)
    ips = [u.split("//")[1].split(":")[0] for u in urls]
    withdraw = advertise(port, [ip for ip in ips if not ip.startswith("127.")] or ips) \
        if mdns else (lambda: None)
    try:
        waitress_serve(app, host=host, port=port, threads=THREADS, ident="companion")
    finally:
        withdraw()

"""``companion serve``: the scoreboard behind a production WSGI server (waitress)."""

from __future__ import annotations

import errno
import logging
import signal
import socket
import threading
from collections.abc import Callable
from pathlib import Path

from companion.device.lan import lan_addresses
from companion.engine.store import EventStore
from companion.errors import CompanionError

log = logging.getLogger(__name__)

# One thread per open page (live updates hold a connection each): phones, a table view,
# stale tabs, and room for requests while they are all connected. At most
# hub.MAX_STREAMS (48) threads are held by live pages, so 16 are always left for requests.
THREADS = 64


def stop_on_signals(first: Callable[[], None]) -> None:
    """Make SIGTERM (systemctl stop, a shutdown) end the server as Ctrl-C does, through its
    clean-up. By default it ends the process at once, skipping all of it: the mDNS name stays
    advertised until it times out on the phones, the camera is never closed, and the LEDs are
    left to whatever the GPIO driver does with the lines of a process gone.

    Either signal runs ``first`` (the hub ending the live pages' streams) before the server
    stops: waitress stops on the exception the signal raises and waits up to 5 s for its
    threads, each live stream holding one until its next heartbeat."""
    if threading.current_thread() is not threading.main_thread():
        return  # only the main thread may set a handler (tests run serve in threads)

    def handler(signum, frame):
        if signum == signal.SIGTERM:
            log.info("stopping: %s", signal.Signals(signum).name)
        first()
        raise SystemExit(0) if signum == signal.SIGTERM else KeyboardInterrupt

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)


DEMO_GAME = "first-island"  # what `make run` and `companion serve --demo` play


def ensure_demo_game(store: EventStore, game: str = DEMO_GAME) -> str:
    """The unfinished demo game of ``game``, or a new one for 2 players (or as near as the
    game allows) with its demo options."""
    from companion.engine.game import get_game
    from companion.engine.session import Session

    for record in store.games():
        if not record.finished and record.game == game:
            return record.game_id
    rules = get_game(game)
    players = min(max(2, rules.min_players), rules.max_players)
    return Session.create(store, game, players, dict(rules.demo_options)).game_id


def demo_dice(game: str) -> int:
    """How many dice the demo's camera rolls for ``game``: as many as it wants at its start
    (0: a game without dice, whose demo has no camera)."""
    from companion.engine.game import get_game

    rules = get_game(game)
    players = min(max(2, rules.min_players), rules.max_players)
    spec = rules.dice(rules.setup(players, dict(rules.demo_options)))
    return 0 if spec is None else spec.count


def print_qr(url: str) -> None:
    """The join link as a QR code in the terminal (phones scan it off the screen)."""
    import segno

    segno.make(url, error="m").terminal(compact=True, border=2)


DEMO_PAUSE = 20.0  # s: the demo's players' time between a round's end and the next roll


def demo_wants_roll(hub, pause: float = DEMO_PAUSE, clock=None) -> Callable[[], bool]:
    """When the demo's camera rolls: whenever the active game asks for a roll (never a
    reroll: the demo's roller keeps every roll). While the round button has something to do
    (the next round), only ``pause`` seconds after the game's last change: the players'
    time to score a camp card before the next roll."""
    import time

    clock = clock or time.time

    def wants_roll() -> bool:
        game_id = hub.active_game()
        if game_id is None:
            return False
        s = hub.session(game_id)
        spec = s.dice()
        if spec is None or spec.reroll:
            return False
        if s.game.button(s.state) is None:
            return True
        last = s.entries[-1].created if s.entries else 0.0
        return clock() - last > pause

    return wants_roll


def _demo_opener(hub, database: Path, count: int):
    """What opens the demo's camera: replayed rolls of ``count`` dice (``demo_wants_roll``),
    or (``count`` 0) each roll drawn for the dice the game asks for."""
    from companion.device.demo import RollingDemoCamera, open_demo_camera

    wants_roll = demo_wants_roll(hub)
    if not count:

        def wanted():
            game_id = hub.active_game()
            return hub.session(game_id).dice() if game_id else None

        return lambda: RollingDemoCamera(wanted, wants_roll)
    folder = database.parent / ("demo-camera" if count == 5 else f"demo-camera-{count}")
    return lambda: open_demo_camera(folder, wants_roll, count)


def start_device(
    hub,
    camera: str,
    database: Path,
    *,
    demo_dice: int = 0,
    min_confidence: float | None = None,
    threads: int = 1,
    custom=None,
    die_problem: str = "",
    view: str = "down",
):
    """The camera's rolls feeding ``hub``'s active game (a Device; started).
    ``demo_dice``: the dice of each roll the demo's camera replays (camera "demo"; 0: each
    roll drawn as the game asks for it).
    ``die_problem``: why the taught die asked for could not be loaded."""
    from companion.device.device import Device

    if camera == "none":
        return hub.attach(Device(hub))
    from companion.errors import VisionError
    from companion.vision.camera import CameraError, camera_opener
    from companion.vision.reader import DiceReader
    from companion.vision.supervisor import CameraSupervisor
    from companion.vision.watch import RollWatcher

    problem = die_problem  # standard dice would misread a taught die's symbols: read nothing
    if not problem:
        try:  # a spec that names no camera: no retry could mend it, so none is made
            opener = (
                _demo_opener(hub, database, demo_dice)
                if camera == "demo"
                else camera_opener(camera)
            )
        except CameraError as exc:
            problem = f"{exc} (set [camera] source in the config, or --camera)"
    if not problem:
        try:
            reader = DiceReader(
                min_confidence=min_confidence, custom=custom, view=view, threads=threads
            )
        except VisionError as exc:  # a die taught with an earlier model, broken models
            problem = str(exc)
    if problem:
        # The games and the phones go on, with rolls entered by hand, and the table page
        # (and the red LED) says what to do.
        log.error("device: cannot read dice: %s", problem)
        return hub.attach(Device(hub, problem=problem))

    supervisor = CameraSupervisor(opener)

    def expected() -> int | None:
        game_id = hub.active_game()
        spec = hub.session(game_id).dice() if game_id else None
        return spec.count if spec is not None else demo_dice or None

    device = hub.attach(Device(hub, RollWatcher(supervisor, reader, expected=expected)))
    device.start()
    return device


def start_panel(device, gpio, *, mock: bool = False):
    """The button and LEDs driven by ``device`` (mock pins off the Pi, or when asked)."""
    from companion.device.panel import Panel, pin_factory

    panel = Panel(gpio, device.press, device.hold, pin_factory(mock or gpio.mock))
    device.listeners.append(lambda d: panel.show(d.state))
    device.accepted.append(panel.chirp)
    panel.show(device.state)
    return panel


def terminal_button(device) -> None:
    """Off the Pi: Enter in the terminal is the button, "u" then Enter holds it (undo)."""
    import sys
    import threading

    if not sys.stdin or not sys.stdin.isatty():
        return

    def loop():
        for line in sys.stdin:
            said = terminal_line(device, line)
            if said:
                print(said, flush=True)

    threading.Thread(target=loop, name="companion-terminal-button", daemon=True).start()
    print(
        "  button: press Enter here to advance the round, or type u and Enter to undo", flush=True
    )


def terminal_line(device, line: str) -> str:
    """Act on one line typed in serve's terminal: Enter alone presses the button, "u" holds
    it (undo). Anything else (a "q" meant to quit, say) does nothing and says what does."""
    typed = line.strip().lower()
    if typed == "":
        device.press()
    elif typed == "u":
        device.hold()
    else:
        return (
            f"  {line.strip()!r} does nothing: Enter alone advances the round, u and Enter "
            "undoes, Ctrl-C stops the server"
        )
    return ""


def listen_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` for waitress to listen on, or a CompanionError
    saying what to do. (waitress binding its own would leave its half-made server's socket
    and wake-up pipe open when the bind fails.)"""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror as exc:
        raise CompanionError(
            f"cannot listen on {host}: {exc.strerror}; pass --host 0.0.0.0 (every address) "
            "or an address that `ip addr` lists",
            code="web/listen",
        ) from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as waitress does
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise CompanionError(listen_problem(host, port, exc), code="web/listen") from None
    return sock


def listen_problem(host: str, port: int, exc: OSError) -> str:
    """What to do when the server cannot listen on ``host``:``port``."""
    if exc.errno == errno.EADDRINUSE:
        return (
            f"port {port} is in use (is a companion already serving? `systemctl status "
            f"companion` says): stop that program, or pass --port with another port"
        )
    if exc.errno == errno.EADDRNOTAVAIL:
        return (
            f"{host} is not an address of this machine: pass --host 0.0.0.0 (every address) "
            "or one that `ip addr` lists"
        )
    if exc.errno == errno.EACCES:
        return f"port {port} needs root: use a port from 1024 up, such as 8000"
    return f"cannot listen on {host}:{port}: {exc.strerror or exc}"


def _web_server(app, host: str, port: int):
    """waitress serving ``app`` on ``host``:``port``, listening already (or a
    CompanionError saying what to do)."""
    from waitress import create_server

    from companion.web import MAX_BODY

    sock = listen_socket(host, port)
    # waitress would take in (and spool to disk) a body of up to 1 GB before the app could
    # refuse it; the app refuses a body over MAX_BODY with a JSON message, waitress anything
    # past 16 times that on its own
    return create_server(
        app,
        sockets=[sock],
        threads=THREADS,
        ident="companion",
        max_request_body_size=16 * MAX_BODY,
    )


def _announce(
    app, store: EventStore, host: str, port: int, database: Path, demo: str | None
) -> None:
    """Print where the pages are (each "open" link makes the browser that opens it the
    host: it carries the host PIN), the phones' join link as a QR code and the host PIN; in
    the demo, start its game (``demo``) and link to it."""
    urls = [f"http://{ip}:{port}/" for ip in lan_addresses()]
    # Phones often cannot resolve .local names: the join link carries the IP address.
    join = urls[0]
    if demo:
        game_id = ensure_demo_game(store, demo)
        app.extensions["companion.hub"].set_active(game_id)
        urls = [f"{u}table/{game_id}" for u in urls]
        join = f"{join}play/{game_id}"
    pin = app.config["HOST_PIN"]
    print(f"Table Companion is serving on {host}:{port} (games in {database})")
    for u in urls:
        print(f"  open {u}?pin={pin}  (on the table screen: it becomes the host)")
    print(f"  phones: scan this or open {join}")
    print_qr(join)
    print(f"  host PIN: {pin}", flush=True)


def serve(
    host: str,
    port: int,
    database: Path,
    *,
    demo: str | None = None,
    mdns: bool = True,
    camera: str = "none",
    min_confidence: float | None = None,
    threads: int = 1,
    custom=None,
    die_problem: str = "",
    gpio=None,
    view: str = "down",
) -> None:
    from companion.device.mdns import Advertiser
    from companion.web import create_app

    store = EventStore(database)
    app = create_app(
        {"DATABASE": str(database), "DEMO": demo is not None, "JOIN_PORT": port}, store=store
    )
    # Listen first: a port in use, or a host that is not this machine's, is said before
    # anything else starts (the camera, the pins, the mDNS name).
    server = _web_server(app, host, port)
    hub = app.extensions["companion.hub"]
    _announce(app, store, host, port, database, demo)
    # the name follows the addresses: the Wi-Fi may come up, or a lease change, later
    withdraw = Advertiser(port).keep_following(lan_addresses) if mdns else (lambda: None)
    from companion.device.demo import rolls_dice as _rolls_dice

    dice = demo_dice(demo) if demo is not None else 0
    from companion.engine.game import get_game

    symbols = get_game(demo).demo_die if demo is not None else ()
    if camera == "demo" and symbols:
        dice = 0  # the game's dice change from roll to roll: each drawn as it is asked for
        from companion.device.demo import taught_demo_die

        custom, die_problem = taught_demo_die(database, demo, symbols, threads)
    elif camera == "demo" and not dice and not _rolls_dice(demo):
        camera = "none"  # the demo's game rolls no dice: nothing for its camera to replay
    device = start_device(
        hub,
        camera,
        database,
        demo_dice=dice,
        min_confidence=min_confidence,
        threads=threads,
        custom=custom,
        die_problem=die_problem,
        view=view,
    )
    print(
        f"  camera: {'the demo replay of rolled dice' if camera == 'demo' else camera}", flush=True
    )
    from companion.device.config import GpioConfig

    panel = start_panel(device, gpio or GpioConfig(), mock=demo is not None)
    terminal_button(device)
    stop_on_signals(hub.close)  # the live pages' streams end, and reconnect once serve is back
    try:
        server.print_listen("Serving on http://{}:{}")
        server.run()
    finally:
        device.stop()
        panel.close()  # the LEDs go dark (gpiozero returns each pin to an input)
        withdraw()
        server.close()
        store.close()
        log.info("stopped; every game is saved and resumes at the next start")

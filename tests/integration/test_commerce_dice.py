"""My Island's commerce dice read by the camera: the demo's camera draws each roll the game
asks for (white dice, then the black die beside the white ones still lying there), the
reader reads the symbols with the die taught from rendered shows, and the device enters
each roll, taking only the dice of the colour wanted."""

from __future__ import annotations

import numpy as np
import pytest

from companion.device.demo import RollingDemoCamera, demo_die
from companion.device.device import Device
from companion.engine.hub import Hub
from companion.engine.store import EventStore
from companion.games.my_island.state import Confirm, Place
from companion.training import render, scenes
from companion.vision.reader import DiceReader
from companion.vision.settle import Settler
from companion.vision.supervisor import CameraSupervisor
from companion.vision.tone import die_tones
from companion.vision.watch import RollWatcher

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def commerce(tmp_path_factory):
    """The demo's commerce die, taught from rendered shows."""
    folder = tmp_path_factory.mktemp("dice")
    return demo_die(folder, "demo-my-island", render.COMMERCE, DiceReader())


def test_dice_seen_together_are_told_white_or_black_even_in_dim_light():
    for k in range(20):
        rng = np.random.default_rng(300 + k)
        faces = [
            render.Face("symbol", str(rng.choice(render.COMMERCE)), b)
            for b in ("white", "black", "white")
        ]
        img, dice = scenes.scene(rng, 480, 640, faces=faces, size_range=(45, 70))
        assert die_tones(img, [d.box for d in dice]) == [d.face.body for d in dice]


def test_the_demo_die_is_taught_once_and_kept(tmp_path, commerce):
    reader = DiceReader()
    first = demo_die(tmp_path, "demo-my-island", render.COMMERCE, reader)
    saved = (tmp_path / "demo-my-island.json").stat().st_mtime_ns
    again = demo_die(tmp_path, "demo-my-island", render.COMMERCE, reader)
    assert (tmp_path / "demo-my-island.json").stat().st_mtime_ns == saved
    assert set(again.faces) == set(first.faces) == set(render.COMMERCE)


def _to_dice(session):
    """A 3-player game up to player 2's tile trading with player 1's: set-up tiles on C3 to
    F3, player 1's B3 (one white die), player 2's B4 beside it (a white die, then player 1's
    black die)."""
    while session.state.phase == "select":
        session.act(session.game.button(session.state).action)
    for square in ("C3", "D3", "E3", "F3"):
        seat = session.state.seat
        session.act(Place(seat, square, "5:LLLL:rrrr"))
        session.act(Confirm(seat))
    session.act(Place(0, "B3", "5:LLLL:aaaa"))
    session.act(Confirm(0))


def test_the_camera_reads_the_white_dice_then_the_black_die_beside_them(tmp_path, commerce):
    hub = Hub(EventStore(tmp_path / "games.db"))
    session = hub.create("my-island", 3, {})
    _to_dice(session)

    def wanted():
        return hub.session(session.game_id).dice()

    camera = RollingDemoCamera(wanted, lambda: wanted() is not None, fps=0)
    watcher = RollWatcher(
        CameraSupervisor(lambda: camera),
        DiceReader(custom=commerce),
        Settler(),
        expected=lambda: wanted().count if wanted() else None,
    )
    device = hub.attach(Device(hub, watcher))
    entered, pending = [], 0
    for square in ("B3", "B4", "B4"):  # B3's white die; B4's white die, then the black die
        s = hub.session(session.game_id)
        if square == "B4" and s.state.last is None:  # player 2 plays beside player 1
            s.act(Place(1, "B4", "5:LLLL:aaaa"))
            s.act(Confirm(1))
        spec, seq = s.dice(), s.seq
        colour = spec.dice[0]
        for _ in range(80):
            device.step()
            if hub.session(session.game_id).seq > seq or device.state == "needs confirmation":
                break
        drawn = [f.value for f in camera._lying if f.body == colour]
        s = hub.session(session.game_id)
        tile = s.state.island[s.state.rules.board.parse(square)]
        if s.seq > seq:  # read right, the dice of the other colour left out
            got = list(tile.white) if colour == "white" else [tile.black[-1][1]]
            assert got == drawn, (colour, got, drawn)
            entered.append(colour)
        else:  # left for a person to confirm, never entered wrong
            pending += 1
            s.act(_confirm(s, drawn))
    assert len(camera._lying) == 2  # the black die was thrown beside player 2's white die
    assert pending <= 1 and len(entered) >= 2, (entered, pending)


def _confirm(session, drawn):
    from companion.engine.game import DiceRolled

    faces = {name.lower(): v for v, name in session.dice().faces.items()}
    return DiceRolled(tuple(faces[f] for f in drawn), source="person")

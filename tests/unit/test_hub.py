"""The hub's live streams: every page watching a game hears of each change, and pages left
open and unread never hold every thread of the server."""

from __future__ import annotations

import itertools
import threading

from companion.engine.hub import EVICTED, Hub
from companion.engine.store import EventStore


def opened(hub: Hub, game_id: str):
    """A stream as a page opens it: its first None says it is listening."""
    stream = hub.listen(game_id, heartbeat=0.01)
    assert next(stream) is None
    return stream


def ends(stream, seconds: float = 5.0) -> list:
    """What ``stream`` still gives, heartbeats left out, if it ends within ``seconds``;
    fails (rather than waiting for ever) if it does not."""
    heard: list = []
    reader = threading.Thread(
        target=lambda: heard.extend(m for m in stream if m is not None), daemon=True
    )
    reader.start()
    reader.join(seconds)
    assert not reader.is_alive(), "the stream did not end"
    return heard


def test_past_its_limit_the_oldest_stream_ends_and_the_others_go_on(tmp_path):
    hub = Hub(EventStore(tmp_path / "games.db"), max_streams=2)
    game = hub.create("first-island", 2, {}).game_id
    first, lobby = opened(hub, game), opened(hub, "*")
    hub.announce(game, {"kind": "a"})
    assert next(first) == {"kind": "a"}
    third = opened(hub, game)  # the oldest, first, is ended for it
    hub.announce(game, {"kind": "c"})
    hub.announce("*", {"kind": "d"})
    assert next(third) == {"kind": "c"} and next(lobby) == {"kind": "d"}
    # ended, told to wait before it reconnects (pages evicting each other within a second
    # went on in a loop), without the message sent after
    assert ends(first) == [EVICTED] and EVICTED["retry"] >= 10


def test_a_stream_closed_by_its_page_frees_its_place(tmp_path):
    hub = Hub(EventStore(tmp_path / "games.db"), max_streams=2)
    game = hub.create("first-island", 2, {}).game_id
    table = opened(hub, game)
    phone = opened(hub, game)
    phone.close()  # the page went away: waitress closes the response's iterator
    again = opened(hub, game)  # the place it left is free: the table's stream is not ended
    hub.announce(game, {"kind": "b"})
    assert next(table) == {"kind": "b"} and next(again) == {"kind": "b"}
    lobby = opened(hub, "*")  # now both places are taken: the oldest, the table's, ends
    assert ends(table) == [EVICTED]
    hub.announce("*", {"kind": "games"})
    assert next(lobby) == {"kind": "games"}


def test_closing_the_hub_ends_every_stream_at_once(tmp_path):
    # serve closes it as it stops: each stream waited out its heartbeat before, and waitress
    # gave up on their threads only after 5 s ("2 thread(s) still running").
    hub = Hub(EventStore(tmp_path / "games.db"))
    game = hub.create("first-island", 2, {}).game_id
    streams = [opened(hub, game), opened(hub, game), opened(hub, "*")]
    hub.close()
    assert [ends(stream) for stream in streams] == [[], [], []]
    hub.announce(game, {"kind": "a"})  # no stream is left to hear it, or to hold a thread


def test_a_stream_says_at_once_that_it_listens(tmp_path):
    # A page's stream sends nothing until then (not after a heartbeat of quiet): the page
    # fetches the game when its stream opens, and must miss no change made after the fetch.
    hub = Hub(EventStore(tmp_path / "games.db"))
    game = hub.create("first-island", 2, {}).game_id
    stream = hub.listen(game, heartbeat=60)
    said = []
    reader = threading.Thread(target=lambda: said.append(next(stream)), daemon=True)
    reader.start()
    reader.join(5)
    assert said == [None]
    hub.announce(game, {"kind": "a"})
    assert next(stream) == {"kind": "a"}


def test_a_stream_that_starts_listening_after_the_hub_closed_ends_at_once(tmp_path):
    # A page's request is taken before its stream listens: serve stopping in between left
    # that stream waiting out its heartbeat, and waitress said "1 thread(s) still running"
    # 5 s later.
    hub = Hub(EventStore(tmp_path / "games.db"))
    game = hub.create("first-island", 2, {}).game_id
    late = hub.listen(game, heartbeat=0.01)  # begun, not yet listening
    hub.close()
    assert list(itertools.islice(late, 3)) == []
    assert list(itertools.islice(hub.listen("*", heartbeat=0.01), 3)) == []


def test_the_pages_of_finished_games_hear_of_a_new_game(tmp_path):
    hub = Hub(EventStore(tmp_path / "games.db"))
    done = hub.create("first-island", 2, {})
    done.act({"type": "finish"})
    playing = hub.create("first-island", 2, {}).game_id
    finished_page, playing_page = opened(hub, done.game_id), opened(hub, playing)
    hub.create("first-island", 2, {})
    hub.announce(playing, {"kind": "x"})
    assert next(finished_page) == {"kind": "next"}  # it refreshes and finds its next game
    assert next(playing_page) == {"kind": "x"}  # a game in play is not told

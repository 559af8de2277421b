"""A bounded fuzz of every route: a few thousand requests with random and hostile bodies,
headers and paths, as a curious player on the same Wi-Fi would send them. No answer is a
5xx, and a request refused changes nothing that was recorded."""

import json
import random

from companion.engine.game import get_game
from companion.engine.store import EventStore
from companion.web import create_app

PIN = "2580"
HOST = {"X-Host-Pin": PIN}
REQUESTS = 3000
WORDS = ["type", "seat", "player", "values", "hex", "picks", "axis", "card", "camp", "points"]
WORDS += ["category", "shape", "action", "pin", "expected_seq", "name", "game", "players"]
WORDS += ["options", "again", "source", "confidence", "variant", "s_card", "categories"]
WORDS += ["square", "tile", "turn", "buyer", "price", "target", "board", "catalogue"]
WORDS += ["site", "slot", "family", "size", "into", "effect", "free", "reason", "amber"]
WORDS += ["frm", "to", "kind", "wounded", "reveal", "stacks", "covers", "piece", "level"]
WORDS += ["take", "bonus", "ship", "counts", "ports", "discovery", "mission", "later"]


SETUPS = {
    "first-island": {"game": "first-island", "players": 2, "options": {"s_card": 4}},
    "score-pad": {"game": "score-pad", "players": 3, "options": {"categories": "A, B"}},
    "my-island": {"game": "my-island", "players": 3, "options": {"board": ["###"] * 3}},
    "first-giants": {"game": "first-giants", "players": 3, "options": {}},
    "first-war": {"game": "first-war", "players": 2, "options": {}},
    "small-islands": {"game": "small-islands", "players": 3, "options": {}},
}


def hostile(rng: random.Random, depth: int = 0):
    """A random JSON value, leaning on what breaks parsers and type checks."""
    pick = rng.randrange(14 if depth < 4 else 9)
    if pick == 0:
        return rng.choice([0, 1, -1, 2, 5, 2**63, -(2**70), 10**400])
    if pick == 1:
        return rng.choice([0.5, 1.0, -0.0, 1e308, float("inf"), float("nan")])
    if pick == 2:
        return rng.choice([True, False, None])
    if pick == 3:
        return rng.choice(["", "a", "\x00\n\u202e", "é" * 300, "<script>", "../../etc/passwd"])
    if pick == 4:
        return rng.choice(WORDS)
    if pick == 5:
        return rng.choice(["first-island", "score-pad", "my-island", "mark", "dice_rolled"])
    if pick in (6, 7, 8):
        return rng.randrange(-3, 8)
    if pick in (9, 10):
        return [hostile(rng, depth + 1) for _ in range(rng.randrange(6))]
    return {rng.choice(WORDS): hostile(rng, depth + 1) for _ in range(rng.randrange(6))}


def action_like(rng: random.Random, game) -> dict:
    """One of ``game``'s actions with each field a random value (often of the wrong type)."""
    kind = rng.choice([*game.actions, "dice_rolled"])
    fields = list(getattr(game.actions.get(kind), "__dataclass_fields__", {"values": 0}))
    action = {"type": kind, **{f: hostile(rng) for f in fields if rng.random() < 0.9}}
    if rng.random() < 0.2:
        action[rng.choice(WORDS)] = hostile(rng)
    return action


def recorded(store: EventStore) -> list:
    """Everything a refused request must leave as it was: each game's log and seats."""
    return [
        (
            g.game_id,
            g.finished,
            [(e.seq, e.kind, e.payload) for e in store.entries(g.game_id)],
            store.seats(g.game_id),
        )
        for g in store.games()
    ]


def test_no_request_gives_a_5xx_or_changes_anything_when_refused(tmp_path):
    store = EventStore(tmp_path / "games.db")
    app = create_app({"HOST_PIN": PIN}, store=store)
    client = app.test_client()
    rng = random.Random(1234)
    games, tokens, kinds = [], {}, {}
    for kind, body in SETUPS.items():
        game_id = client.post("/api/games", json=body, headers=HOST).get_json()["game_id"]
        games.append(game_id)
        kinds[game_id] = kind
        for seat in range(body["players"] - 1):  # one seat left free
            r = client.post(f"/api/games/{game_id}/seats/{seat}", json={"name": f"P{seat}"})
            tokens[(game_id, seat)] = r.get_json()["token"]
    paths = ["actions", "press", "finish", "undo", "redo", "seats/0", "seats/2", "seats/99"]
    reads = ["", "/export.json", "/export.csv", "/board-0.json", "/board-9.json", "/events?x=1"]
    failures, sent = [], 0
    for i in range(REQUESTS):
        game_id = rng.choice(games if rng.random() < 0.85 else ["NOPE1", "x" * 40, "%00", "../e"])
        headers = {}
        if rng.random() < 0.5 and game_id in games:
            seat = rng.randrange(3)
            headers["X-Seat-Token"] = tokens.get((game_id, seat), "forged-token")
        if rng.random() < 0.3:
            headers["X-Host-Pin"] = rng.choice([PIN, "0000", "", "€"])
        if rng.random() < 0.05:
            headers["Origin"] = rng.choice(["http://evil.example", "null"])
        roll = rng.random()
        if roll < 0.55:
            path = f"/api/games/{game_id}/{rng.choice(paths) if rng.random() < 0.5 else 'actions'}"
            rules = get_game(kinds.get(game_id, "score-pad"))
            if rng.random() < 0.7:
                action = action_like(rng, rules)
                if rng.random() < 0.5 and game_id in games:  # a seat's own phone, acting
                    action["seat"] = rng.randrange(2)
                    headers["X-Seat-Token"] = tokens.get((game_id, action["seat"]), "")
                body = {"action": action, **({"pin": PIN} if rng.random() < 0.2 else {})}
                if rng.random() < 0.3:
                    body["expected_seq"] = hostile(rng)
            else:
                body = hostile(rng)
            data = json.dumps(body)
            kind = rng.choice(
                ["application/json", "text/plain", "application/json; charset=latin-1"]
            )
            if rng.random() < 0.05:
                data = rng.choice([b"\xff\xfe{", b"{" * 500, b'{"action": {"type": "mark"', b""])
            before = recorded(store)
            r = client.post(path, data=data, content_type=kind, headers=headers)
            if r.status_code >= 400 and recorded(store) != before:
                failures.append(f"{path} {data!r:.200}: refused ({r.status_code}) but changed")
        elif roll < 0.7:
            body = hostile(rng)
            before = recorded(store)
            r = client.post("/api/games", data=json.dumps(body), content_type="application/json")
            if r.status_code >= 400 and recorded(store) != before:
                failures.append(f"new game {body!r:.200}: refused but changed")
        elif roll < 0.75:
            before = recorded(store)
            r = client.delete(f"/api/games/{game_id}", json=hostile(rng), headers=headers)
            if r.status_code >= 400 and recorded(store) != before:
                failures.append(f"delete {game_id}: refused but changed")
            if r.status_code == 200:  # deleted with the PIN: a new game of its kind in its place
                kind = kinds[game_id]
                app.extensions["companion.pin_tries"] = {}  # (the fuzz's wrong PINs: not ours)
                made = client.post("/api/games", json=SETUPS[kind], headers=HOST)
                made = made.get_json()["game_id"]
                games[games.index(game_id)] = made
                kinds[made] = kind
                for seat in range(SETUPS[kind]["players"] - 1):
                    r = client.post(f"/api/games/{made}/seats/{seat}", json={"name": f"P{seat}"})
                    tokens[(made, seat)] = r.get_json()["token"]
        else:
            path = rng.choice(
                [
                    f"/api/games/{game_id}{rng.choice(reads)}",
                    "/api/catalog",
                    "/api/games",
                    "/api/device/roll.jpg",
                    "/api/device/view.jpg",
                    f"/table/{game_id}",
                    f"/play/{game_id}",
                    "/camera?pin=%E2%82%AC",
                    "/",
                    "/api/nothing",
                ]
            )
            if path.endswith("/events?x=1"):
                continue  # a live stream never ends by itself: its routes are tested apart
            r = client.get(path, headers=headers)
        if r.status_code >= 500:
            said = r.get_data(as_text=True)[:300]
            failures.append(f"{i}: {r.status_code} {r.request.method} {r.request.path}: {said}")
        sent += 1
    assert failures == [], "\n".join(failures[:20])
    assert sent > REQUESTS * 0.9  # (live streams are left out)
    store.close()

"""A separate process that plays actions into a game: one JSON action per stdin line,
"ok SEQ" on stdout once each is committed. The kill test SIGKILLs it mid-stream."""

import json
import sys

from companion.engine.session import Session
from companion.engine.store import EventStore


def main(db: str, game_id: str) -> None:
    session = Session(EventStore(db), game_id)
    for line in sys.stdin:
        session.act(json.loads(line))
        print(f"ok {session.seq}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

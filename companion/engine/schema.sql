-- The event store: one row per game, and an append-only log of entries per game.
-- (game_id, seq) is the primary key, so two writers racing for the same slot
-- collide instead of corrupting the log.
CREATE TABLE IF NOT EXISTS games (
    game_id   TEXT PRIMARY KEY,
    game      TEXT NOT NULL,
    players   INTEGER NOT NULL,
    options   TEXT NOT NULL,          -- JSON, fixed at setup
    created   REAL NOT NULL,
    finished  INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE IF NOT EXISTS events (
    game_id   TEXT NOT NULL REFERENCES games(game_id),
    seq       INTEGER NOT NULL,       -- 1, 2, 3, ... per game
    kind      TEXT NOT NULL CHECK (kind IN ('action', 'undo', 'redo')),
    seat      INTEGER,                -- who asked; NULL for the table (dice, button)
    payload   TEXT NOT NULL,          -- JSON: the action, or {"target": seq}
    created   REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- Who sits where: a phone that claims a seat gets a token and acts only for it.
CREATE TABLE IF NOT EXISTS seats (
    game_id   TEXT NOT NULL REFERENCES games(game_id),
    seat      INTEGER NOT NULL,
    name      TEXT NOT NULL,
    token     TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);

-- The device's own settings that outlive a restart (the host PIN).
CREATE TABLE IF NOT EXISTS settings (
    key       TEXT PRIMARY KEY,
    value     TEXT NOT NULL
);

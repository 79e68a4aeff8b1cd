-- Turn-based go games in the chat (seed 001), and each club's go settings. See docs/go.md.

CREATE TABLE go_games (
    id              INTEGER PRIMARY KEY,
    club_id         INTEGER NOT NULL REFERENCES clubs(id) ON DELETE CASCADE,
    black_id        INTEGER NOT NULL REFERENCES members(id),
    white_id        INTEGER NOT NULL REFERENCES members(id),
    challenger_id   INTEGER NOT NULL REFERENCES members(id),
    size            INTEGER NOT NULL CHECK (size IN (9, 13, 19)),
    handicap        INTEGER NOT NULL DEFAULT 0 CHECK (handicap BETWEEN 0 AND 9),
    komi            TEXT NOT NULL,                  -- a fraction: '11/2'
    status          TEXT NOT NULL CHECK (status IN ('challenged', 'declined', 'playing', 'finished')),
    record          TEXT NOT NULL DEFAULT '',       -- the actions, one a line: 'B D4', 'W pass', 'B mark C3', ...
    keizer_game_id  INTEGER REFERENCES games(id),   -- the competition pairing this game is played for
    result          TEXT,                           -- SGF style: 'B+3.5', 'W+R', 'B+T', '0' (a tie)
    winner_id       INTEGER REFERENCES members(id), -- NULL for a tie or while playing
    created_at      TEXT NOT NULL,
    started_at      TEXT,
    turn_started_at TEXT,                           -- when the player to act got the turn
    reminded_at     TEXT,                           -- the last reminder to the player to act
    finished_at     TEXT
);

CREATE INDEX go_games_status ON go_games (status);
CREATE INDEX go_games_black ON go_games (black_id);
CREATE INDEX go_games_white ON go_games (white_id);

CREATE TABLE go_settings (
    club_id         INTEGER PRIMARY KEY REFERENCES clubs(id) ON DELETE CASCADE,
    remind_minutes  INTEGER,                        -- remind the player to act after this long; NULL: never
    think_minutes   INTEGER,                        -- maximum thinking time per move; NULL: no limit
    handicap_komi   TEXT NOT NULL DEFAULT '1/2'     -- komi of a handicap game
);

-- Issue 43 §2: the games of a club's round made online, as open challenges on lichess (the core's table,
-- bot/core/online/games_store.py; the worker that makes them is bot/core/online/challenges.py). A system
-- (the Keizer competition: system 'keizer') queues one row per board whose two players have a lichess
-- account when it publishes a round; the worker makes the challenge and records it; the system's hooks
-- (bot/core/online/rounds.py) announce the round with the links.
--   system, round_ref, game_ref: the system's own round and game (Keizer: rounds.id, games.id; no foreign
--     key, they are another owner's rows); board: the board in the announcement.
--   white_id/black_id, white_user/black_user: the members and their lichess user ids (lower case).
--   clock_limit, clock_increment (seconds), rated (1/0), name: the challenge asked for; starts_at: the start
--     of play (not made by then: the director is told, once: reported_at); expires_at: the latest start
--     (the challenge's expiresAt).
--   status: 'pending' (to be made; attempted_at set: a request may have gone out, retry_at: not before),
--     'created' (made: lichess_id and the links recorded, made_at), 'cancel' (made, to be cancelled at
--     lichess), 'cancelled', 'failed' (lichess refused it: error), and the states following the game
--     (issue 43 §3: 'finished', 'expired', ...).
--   attempts: how many creation requests went out for it; announced_at: its round's announcement was
--     queued; link_sent_at: its links were queued in an announcement (the round's, or a later one).
CREATE TABLE online_games (
    id INTEGER PRIMARY KEY,
    club_id INTEGER NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    system TEXT NOT NULL,
    round_ref INTEGER NOT NULL,
    game_ref INTEGER,
    board INTEGER NOT NULL,
    white_id INTEGER NOT NULL REFERENCES members (id),
    black_id INTEGER NOT NULL REFERENCES members (id),
    white_user TEXT NOT NULL,
    black_user TEXT NOT NULL,
    clock_limit INTEGER NOT NULL,
    clock_increment INTEGER NOT NULL,
    rated INTEGER NOT NULL,
    name TEXT NOT NULL,
    starts_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    queued_at TEXT NOT NULL,
    attempted_at TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    retry_at TEXT,
    error TEXT,
    lichess_id TEXT,
    url TEXT,
    url_white TEXT,
    url_black TEXT,
    made_at TEXT,
    announced_at TEXT,
    link_sent_at TEXT,
    reported_at TEXT,
    cancelled_at TEXT
);
CREATE INDEX online_games_by_round ON online_games (club_id, system, round_ref);
CREATE INDEX online_games_by_status ON online_games (status);
CREATE UNIQUE INDEX online_games_by_lichess ON online_games (lichess_id) WHERE lichess_id IS NOT NULL;
-- A private notice's button that opens an address (a player's game on lichess): its label and address
-- (bot/core/storage/store.py Announcement.link; a Discord link button, a Telegram inline keyboard's url button).
ALTER TABLE announcements ADD COLUMN link_label TEXT;
ALTER TABLE announcements ADD COLUMN link_url TEXT;

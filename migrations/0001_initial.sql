-- clubbot's first schema: clubs, members and their chat identities, Keizer seasons with their rounds,
-- sign-offs, games and results, and the announcement outbox.

CREATE TABLE clubs (
    id          INTEGER PRIMARY KEY,
    platform    TEXT NOT NULL,              -- 'discord' | 'telegram' | 'console'
    external_id TEXT NOT NULL,              -- guild id / chat id / console session name
    name        TEXT NOT NULL,
    language    TEXT NOT NULL DEFAULT 'nl' CHECK (language IN ('nl', 'en')),
    timezone    TEXT NOT NULL DEFAULT 'Europe/Amsterdam',
    channel_id  TEXT,                       -- where announcements go
    created_at  TEXT NOT NULL,
    UNIQUE (platform, external_id)
);

CREATE TABLE members (
    id           INTEGER PRIMARY KEY,
    club_id      INTEGER NOT NULL REFERENCES clubs(id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    rating       INTEGER NOT NULL DEFAULT 0,
    is_director  INTEGER NOT NULL DEFAULT 0,
    created_at   TEXT NOT NULL,
    UNIQUE (club_id, name COLLATE NOCASE)
);

-- A member's chat identity (a Discord user id, a Telegram user id, a console name) within one club.
CREATE TABLE identities (
    club_id     INTEGER NOT NULL REFERENCES clubs(id) ON DELETE CASCADE,
    user_id     TEXT NOT NULL,
    member_id   INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    PRIMARY KEY (club_id, user_id)
);

CREATE TABLE seasons (
    id            INTEGER PRIMARY KEY,
    club_id       INTEGER NOT NULL REFERENCES clubs(id) ON DELETE CASCADE,
    name          TEXT NOT NULL,
    kind          TEXT NOT NULL DEFAULT 'main' CHECK (kind IN ('main', 'rapid')),
    rounds_count  INTEGER NOT NULL CHECK (rounds_count BETWEEN 1 AND 200),
    deadline_time TEXT NOT NULL,            -- local HH:MM on the playing day
    publish_time  TEXT NOT NULL,            -- local HH:MM on the playing day
    timezone      TEXT NOT NULL,
    settings_json TEXT NOT NULL DEFAULT '{}',
    status        TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished')),
    created_at    TEXT NOT NULL,
    UNIQUE (club_id, name)
);

-- Who plays in a season; auto_signed_off is seed 004 rule j (two no-shows in a row).
CREATE TABLE season_players (
    season_id       INTEGER NOT NULL REFERENCES seasons(id) ON DELETE CASCADE,
    member_id       INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    rating          INTEGER NOT NULL DEFAULT 0,
    group_name      TEXT,
    joined_round    INTEGER NOT NULL DEFAULT 1,
    start_points    TEXT,                   -- a fraction "a/b", set by the director, or NULL
    auto_signed_off INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (season_id, member_id)
);

CREATE TABLE rounds (
    id          INTEGER PRIMARY KEY,
    season_id   INTEGER NOT NULL REFERENCES seasons(id) ON DELETE CASCADE,
    number      INTEGER NOT NULL,
    play_date   TEXT NOT NULL,              -- local date YYYY-MM-DD
    deadline_at TEXT NOT NULL,              -- UTC ISO 8601
    publish_at  TEXT NOT NULL,              -- UTC ISO 8601
    status      TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed', 'paired')),
    paired_at   TEXT,
    UNIQUE (season_id, number)
);

CREATE TABLE signoffs (
    round_id    INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    member_id   INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    kind        TEXT NOT NULL CHECK (kind IN ('notice', 'team', 'unexcused')),
    created_at  TEXT NOT NULL,
    created_by  INTEGER REFERENCES members(id),
    PRIMARY KEY (round_id, member_id)
);

CREATE TABLE games (
    id              INTEGER PRIMARY KEY,
    round_id        INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    board           INTEGER NOT NULL,
    white_id        INTEGER NOT NULL REFERENCES members(id),
    black_id        INTEGER NOT NULL REFERENCES members(id),
    result          TEXT CHECK (result IN ('1-0', '0-1', '1/2-1/2', '1-0F', '0-1F', '0-0F')),
    reported_result TEXT CHECK (reported_result IN ('1-0', '0-1', '1/2-1/2')),
    reported_by     INTEGER REFERENCES members(id),
    confirmed_at    TEXT,
    UNIQUE (round_id, board)
);

CREATE TABLE byes (
    round_id    INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    member_id   INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    PRIMARY KEY (round_id, member_id)
);

-- Announcements to a club's channel: written in the same transaction as what they announce,
-- sent by the dispatcher, and never sent again once sent_at is set.
CREATE TABLE announcements (
    id          INTEGER PRIMARY KEY,
    club_id     INTEGER NOT NULL REFERENCES clubs(id) ON DELETE CASCADE,
    round_id    INTEGER REFERENCES rounds(id) ON DELETE CASCADE,
    kind        TEXT NOT NULL,
    body        TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    sent_at     TEXT,
    UNIQUE (round_id, kind)
);

CREATE INDEX rounds_due ON rounds (status, publish_at);
CREATE INDEX announcements_pending ON announcements (sent_at) WHERE sent_at IS NULL;
CREATE INDEX games_round ON games (round_id);

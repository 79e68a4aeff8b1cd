-- Grades and the Dutch points promotion system (seed 002). See docs/grades.md.
-- Grades are stored as their place on one scale: 30 kyu = 0, 1 kyu = 29, 1 dan = 30, 9 dan = 38.

-- A member's grade history: the committee's settings ('set') and the promotions the bot recorded
-- ('promotion'). The latest row (by id) is the current grade; the member's series counts the games after
-- (anchor_date, anchor_key): for a setting its 'from' date (anchor_key ''), for a promotion the last game
-- of the series that earned it. A promotion keeps the games that earned it (games_json).
CREATE TABLE grade_events (
    id          INTEGER PRIMARY KEY,
    member_id   INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    grade       INTEGER NOT NULL CHECK (grade BETWEEN 0 AND 38),
    kind        TEXT NOT NULL CHECK (kind IN ('set', 'promotion')),
    anchor_date TEXT NOT NULL,                  -- YYYY-MM-DD
    anchor_key  TEXT NOT NULL DEFAULT '',
    points      INTEGER,
    games_json  TEXT,
    created_at  TEXT NOT NULL,
    created_by  INTEGER REFERENCES members(id) ON DELETE SET NULL
);
-- One promotion per earning game: the same series is never recorded (or announced) twice.
CREATE UNIQUE INDEX grade_events_promotion ON grade_events (member_id, anchor_date, anchor_key) WHERE kind = 'promotion';
CREATE INDEX grade_events_member ON grade_events (member_id, id);

-- The committee's exceptions for a member as an opponent (seed 002): an unreliable grade (games against
-- them do not count) or an estimated grade (shown as such).
CREATE TABLE grade_flags (
    member_id   INTEGER PRIMARY KEY REFERENCES members(id) ON DELETE CASCADE,
    unreliable  INTEGER NOT NULL DEFAULT 0,
    estimated   INTEGER NOT NULL DEFAULT 0
);

-- Games the director entered (/partij) or imported (/partijenimport), each from one member's side.
-- opponent_grade NULL: the opponent is the member opponent_id, at their grade on that day.
CREATE TABLE grade_games (
    id             INTEGER PRIMARY KEY,
    club_id        INTEGER NOT NULL REFERENCES clubs(id) ON DELETE CASCADE,
    member_id      INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    played_on      TEXT NOT NULL,               -- YYYY-MM-DD
    opponent_name  TEXT NOT NULL,
    opponent_id    INTEGER REFERENCES members(id) ON DELETE SET NULL,
    opponent_grade INTEGER CHECK (opponent_grade BETWEEN 0 AND 38),
    estimated      INTEGER NOT NULL DEFAULT 0,
    unreliable     INTEGER NOT NULL DEFAULT 0,
    result         TEXT NOT NULL CHECK (result IN ('win', 'loss', 'draw')),
    handicap       INTEGER NOT NULL DEFAULT 0 CHECK (handicap BETWEEN 0 AND 9),
    minutes        INTEGER CHECK (minutes BETWEEN 0 AND 1000),
    byoyomi        INTEGER CHECK (byoyomi BETWEEN 0 AND 3600),
    official       INTEGER NOT NULL DEFAULT 1,
    event          TEXT NOT NULL DEFAULT '',
    source         TEXT NOT NULL CHECK (source IN ('manual', 'csv')),
    created_at     TEXT NOT NULL,
    created_by     INTEGER REFERENCES members(id) ON DELETE SET NULL
);
CREATE INDEX grade_games_member ON grade_games (member_id);
CREATE INDEX grade_games_club ON grade_games (club_id);

-- The time control of a Keizer season ('season', seasons.id) or an NK tournament ('nk', nk_tournaments.id),
-- set by the director: its confirmed games count for grades only once it is set.
CREATE TABLE grade_time_controls (
    kind        TEXT NOT NULL CHECK (kind IN ('season', 'nk')),
    ref_id      INTEGER NOT NULL,
    club_id     INTEGER NOT NULL REFERENCES clubs(id) ON DELETE CASCADE,
    minutes     INTEGER NOT NULL,
    byoyomi     INTEGER NOT NULL,
    official    INTEGER NOT NULL,
    PRIMARY KEY (kind, ref_id)
);

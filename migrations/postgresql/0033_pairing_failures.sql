-- Issue 30: a round the scheduler could not pair (a season the engine cannot read). The director is told
-- once, and the round is tried again only after the season changed (its version moved on), instead of
-- on every wake of the alarm.
CREATE TABLE pairing_failures (
    round_id       INTEGER PRIMARY KEY REFERENCES rounds(id) ON DELETE CASCADE,
    season_version INTEGER NOT NULL,
    failed_at      TEXT NOT NULL
);

-- As ../0080 (issue 44 §1): the evenings a season does not play (a holiday, a club event), given with
-- /seizoen vrij 2026-12-24 2026-12-31: the rounds not yet paired on or after one move to the next
-- playing evenings. One row per season and local date (YYYY-MM-DD).
CREATE TABLE free_evenings (
    season_id  INTEGER NOT NULL REFERENCES seasons(id) ON DELETE CASCADE,
    day        TEXT NOT NULL,
    PRIMARY KEY (season_id, day)
);
-- How many times a round moved to another evening (a free evening, /ronde N datum=): its calendar event's
-- SEQUENCE, so a calendar app takes the moved event as a new version of the same one.
ALTER TABLE rounds ADD COLUMN moved INTEGER NOT NULL DEFAULT 0;

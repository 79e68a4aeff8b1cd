-- Issue 19. A director withdraws a player from the season (/speler Naam terugtrekken): out of the
-- pairing and the ranking from that round on. An automatic sign-off by the no-show rule (seed 004 j)
-- is a kind of its own, so a club can set what it earns (auto_signoff_fraction; 1/3 by default).
ALTER TABLE season_players ADD COLUMN withdrawn_from INTEGER;

CREATE TABLE signoffs_new (
    round_id    INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    member_id   INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    kind        TEXT NOT NULL CHECK (kind IN ('notice', 'team', 'unexcused', 'auto')),
    created_at  TEXT NOT NULL,
    created_by  INTEGER REFERENCES members(id),
    PRIMARY KEY (round_id, member_id)
);
INSERT INTO signoffs_new (round_id, member_id, kind, created_at, created_by)
    SELECT round_id, member_id, kind, created_at, created_by FROM signoffs;
DROP TABLE signoffs;
ALTER TABLE signoffs_new RENAME TO signoffs;

CREATE TRIGGER season_version_signoffs_insert AFTER INSERT ON signoffs
BEGIN UPDATE seasons SET version = version + 1 WHERE id = (SELECT season_id FROM rounds WHERE id = NEW.round_id); END;
CREATE TRIGGER season_version_signoffs_update AFTER UPDATE ON signoffs
BEGIN UPDATE seasons SET version = version + 1
    WHERE id IN (SELECT season_id FROM rounds WHERE id IN (OLD.round_id, NEW.round_id)); END;
CREATE TRIGGER season_version_signoffs_delete AFTER DELETE ON signoffs
BEGIN UPDATE seasons SET version = version + 1 WHERE id = (SELECT season_id FROM rounds WHERE id = OLD.round_id); END;

-- Issue 34 §2: a member's attendance mode in the Keizer competition. 'present' (the default, as before):
-- paired unless signed off; 'absent': absent from every round unless signed on for it (/mijn aanwezig
-- afgemeld). A sign-on is a row of signons; when the round is paired, an absent-by-default member without
-- one gets an ordinary sign-off (kind 'notice', seed 004 Keizer rule e: 1/3 of one's own value).
CREATE TABLE attendance_modes (
    member_id  INTEGER PRIMARY KEY REFERENCES members(id) ON DELETE CASCADE,
    mode       TEXT NOT NULL CHECK (mode IN ('present', 'absent'))
);
CREATE TABLE signons (
    round_id    INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    member_id   INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    created_at  TEXT NOT NULL,
    PRIMARY KEY (round_id, member_id)
);
CREATE TRIGGER season_version_signons_insert AFTER INSERT ON signons
BEGIN UPDATE seasons SET version = version + 1 WHERE id = (SELECT season_id FROM rounds WHERE id = NEW.round_id); END;
CREATE TRIGGER season_version_signons_delete AFTER DELETE ON signons
BEGIN UPDATE seasons SET version = version + 1 WHERE id = (SELECT season_id FROM rounds WHERE id = OLD.round_id); END;

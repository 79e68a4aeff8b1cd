-- As ../0065 (issue 34 §2): a member's attendance mode ('present' unless signed off, or 'absent' unless
-- signed on) and the sign-ons of absent-by-default members; a sign-on changes its season's version.
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
CREATE TRIGGER season_version_signons AFTER INSERT OR UPDATE OR DELETE ON signons
    FOR EACH ROW EXECUTE FUNCTION season_version_by_round();

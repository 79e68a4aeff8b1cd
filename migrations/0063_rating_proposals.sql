-- Issue 34 §1: what /ratings importeer proposes for a member without an identity in the list's
-- federation, found by name: the director confirms with /ratings bevestig (all, or the members named),
-- which sets the identity and the rating. An import of the same federation's list replaces them.
CREATE TABLE rating_proposals (
    club_id   INTEGER NOT NULL REFERENCES clubs(id) ON DELETE CASCADE,
    member_id INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    source    TEXT NOT NULL CHECK (source IN ('knsb', 'fide', 'egd')),
    identity  TEXT NOT NULL,
    listed    TEXT NOT NULL,
    rating    INTEGER,
    federation TEXT,
    list_day  TEXT NOT NULL,
    PRIMARY KEY (club_id, member_id, source)
);

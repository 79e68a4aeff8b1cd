-- Issue 34 §3: pairs the director keeps apart in the Keizer pairing (a parent and child, family members),
-- per club and for every season: /indeling verbied A B, lifted with /indeling verbied A B uit. A pair is
-- stored once, in either order (a merge of two members may turn it around).
CREATE TABLE forbidden_pairings (
    club_id    INTEGER NOT NULL REFERENCES clubs(id) ON DELETE CASCADE,
    member_a   INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    member_b   INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    PRIMARY KEY (club_id, member_a, member_b)
);

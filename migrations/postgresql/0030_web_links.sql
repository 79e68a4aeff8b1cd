-- Issue 17: members' personal links to the club's website (the sign-off form, the members-only pages).
-- Only a hash of each link's secret is kept. A member may hold a few (phone, computer); /website nieuw
-- removes them all and gives one new one.
CREATE TABLE web_links (
    token_hash TEXT PRIMARY KEY,
    member_id INTEGER NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    club_id INTEGER NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL
);
CREATE INDEX web_links_by_member ON web_links (member_id);

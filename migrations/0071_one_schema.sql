-- Issue 42 (one schema): what PostgreSQL's schema had and SQLite's lacked, found by
-- tests/bot/store/test_one_schema.py. Nothing a user sees changes.
--
-- The indexes ../postgresql/0001_initial.sql made beside its tables, under the same names: a member's
-- chat identities (read by member, and cascaded when a member is removed), a club's announcements, and
-- the club's members and seasons and a season's rounds.
CREATE INDEX identities_member ON identities (member_id);
CREATE INDEX announcements_club ON announcements (club_id);
CREATE INDEX members_club ON members (club_id);
CREATE INDEX seasons_club ON seasons (club_id);
CREATE INDEX rounds_season ON rounds (season_id);

-- A personal link's hash is its key, never NULL: SQLite's PRIMARY KEY on a TEXT column lets a NULL in (an
-- old quirk of SQLite's; PostgreSQL's refuses it), so the table is made again with NOT NULL. The store
-- always writes a hash; a row without one could never be looked up, and is not copied.
CREATE TABLE web_links_new (
    token_hash TEXT NOT NULL PRIMARY KEY,
    member_id INTEGER NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    club_id INTEGER NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    seq INTEGER NOT NULL DEFAULT 0
);
INSERT INTO web_links_new (token_hash, member_id, club_id, created_at, seq)
    SELECT token_hash, member_id, club_id, created_at, seq FROM web_links WHERE token_hash IS NOT NULL;
DROP TABLE web_links;
ALTER TABLE web_links_new RENAME TO web_links;
CREATE INDEX web_links_by_member ON web_links (member_id);

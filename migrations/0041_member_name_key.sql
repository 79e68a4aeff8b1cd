-- Issue 30: names compare the same way on SQLite and PostgreSQL, case and accents aside (Émile is emile):
-- by a key kept beside each name (bot/core/name_key.py), filled by the store for the rows from before.
-- Not unique: a file from before may hold two members whose names differ only in case or accents
-- (clubbot migrate-db names them; /speler A samenvoegen B merges them).
ALTER TABLE members ADD COLUMN name_key TEXT;
CREATE INDEX members_by_name_key ON members (club_id, name_key);

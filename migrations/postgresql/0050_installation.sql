-- Issue 33 §6: an id of this installation, made once, so that what the bot hands out to the world (the
-- calendar's event UIDs) is unique across installations. A copy (clubbot migrate-db, a restore) keeps it.
CREATE TABLE installation (
    one INTEGER PRIMARY KEY CHECK (one = 1),
    uid TEXT NOT NULL
);
INSERT INTO installation (one, uid) VALUES (1, md5(random()::text || clock_timestamp()::text));

-- Issue 33 §6: the order personal links were made in, as a column (the oldest beyond five stop working).
-- rowid (PostgreSQL's ctid) is not that order after DELETE and VACUUM.
ALTER TABLE web_links ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
UPDATE web_links SET seq = rowid;

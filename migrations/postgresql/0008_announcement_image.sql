-- An announcement may carry a picture (the pairing or the standings as PNG), made when it is queued,
-- so every platform posts the same picture with the text as fallback.
ALTER TABLE announcements ADD COLUMN image BYTEA;

-- An announcement's picture is kept as what it shows (title, table, notes: JSON) and drawn when it is
-- sent, not while the round is paired: pairing and queueing a thousand clubs at one minute draws
-- nothing, and the outbox holds a few hundred bytes where it held a PNG (docs/performance.md).
ALTER TABLE announcements ADD COLUMN picture TEXT;

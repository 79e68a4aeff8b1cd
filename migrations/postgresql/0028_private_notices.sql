-- Issue 21: a member who allows it (/mijn meldingen aan) gets a private message with their opponent and
-- colour when a round is published. The outbox carries the chat account it goes to (NULL: the club's
-- channel, as before).
ALTER TABLE members ADD COLUMN notify INTEGER NOT NULL DEFAULT 0;
ALTER TABLE announcements ADD COLUMN recipient TEXT;

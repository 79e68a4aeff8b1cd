-- Issue 30 §4: the chat accounts that acted as a club's director (a Discord role, a Telegram group
-- administrator) are where the director's private notices go: open and disputed results at the deadline,
-- a held pairing. Recorded when a director's command is accepted; forgotten when the account acts
-- without the director's rights.
CREATE TABLE director_accounts (
    club_id INTEGER NOT NULL REFERENCES clubs(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL,
    seen_at TEXT NOT NULL,
    PRIMARY KEY (club_id, user_id)
);

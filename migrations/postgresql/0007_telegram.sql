-- Telegram: directors besides the group's administrators. A group administrator adds a member by
-- answering one of their messages with /wedstrijdleider; the bot then treats that Telegram user as a
-- director of the club (also in a private chat with the bot).
CREATE TABLE telegram_directors (
    club_id   INTEGER NOT NULL REFERENCES clubs(id) ON DELETE CASCADE,
    user_id   TEXT NOT NULL,              -- the Telegram user id
    name      TEXT NOT NULL,              -- their Telegram name when they were added (for the list)
    added_by  TEXT NOT NULL,              -- the Telegram user id of the administrator who added them
    added_at  TEXT NOT NULL,
    PRIMARY KEY (club_id, user_id)
);

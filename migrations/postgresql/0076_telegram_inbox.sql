-- Issue 46 §2: Telegram's updates, kept before Telegram is told they arrived. Telegram never sends an
-- update again once the bot's next getUpdates confirms it, so each is written here first (committed), and
-- handled from here: after a crash the ones not yet answered are handled again, in order. A command that
-- changed something keeps its reply here in its own transaction, so that it is sent, not run, again.
CREATE TABLE telegram_inbox (
    bot_id      BIGINT NOT NULL,              -- the bot's Telegram id: update ids are the bot's own
    update_id   BIGINT NOT NULL,
    body        TEXT,                         -- the update as Telegram sent it (JSON); emptied once answered
    reply       TEXT,                         -- the reply of a command that changed something (JSON); emptied once answered
    received_at TEXT NOT NULL,
    answered_at TEXT,                         -- every reply went out (or none was due)
    PRIMARY KEY (bot_id, update_id)
);
CREATE INDEX telegram_inbox_unanswered ON telegram_inbox (bot_id, update_id) WHERE answered_at IS NULL;

-- As ../0073 (issue 46 §4): a chat account the bot cannot send private notices to (Discord: closed
-- direct messages, error 50007; Telegram: no private chat with the bot, or blocked). private_closed_at: since
-- when (NULL: private notices go); private_closed_told: the club's directors were told (once).
ALTER TABLE identities ADD COLUMN private_closed_at TEXT;
ALTER TABLE identities ADD COLUMN private_closed_told INTEGER NOT NULL DEFAULT 0;

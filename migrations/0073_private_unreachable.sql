-- Issue 46 §4: a chat account the bot cannot send private notices to (Discord: the member's direct
-- messages are closed, error 50007; Telegram: the member never started a chat with the bot, or blocked
-- it). private_closed_at: since when (NULL: private notices go); private_closed_told: the club's directors
-- were told (once; /leden shows it for as long as it lasts). A private notice that goes clears both.
ALTER TABLE identities ADD COLUMN private_closed_at TEXT;
ALTER TABLE identities ADD COLUMN private_closed_told INTEGER NOT NULL DEFAULT 0;

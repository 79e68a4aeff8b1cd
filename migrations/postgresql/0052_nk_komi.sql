-- Issue 31: the NK's komi, kept per tournament. New tournaments get 6.5 (a jigo cannot happen); the
-- tournaments from before keep the 7 they were played with.
ALTER TABLE nk_tournaments ADD COLUMN komi TEXT NOT NULL DEFAULT '7';

-- Issue 44 §2: a result both players agreed on (one reported it, the other confirmed or reported the same)
-- is marked, so that a director's result that contradicts it is not silent (/uitslag Naam ... toch).
-- 0: entered by a director, by the online follower, or not yet in.
ALTER TABLE games ADD COLUMN agreed INTEGER NOT NULL DEFAULT 0;

-- As ../0026 (issue 19): a director withdraws a player from the season (withdrawn_from), and an automatic
-- sign-off by the no-show rule is a kind of its own. SQLite rebuilt the sign-offs table to widen its
-- CHECK; PostgreSQL changes the constraint (its triggers stay).
ALTER TABLE season_players ADD COLUMN withdrawn_from INTEGER;
ALTER TABLE signoffs DROP CONSTRAINT signoffs_kind_check;
ALTER TABLE signoffs ADD CONSTRAINT signoffs_kind_check CHECK (kind IN ('notice', 'team', 'unexcused', 'auto'));

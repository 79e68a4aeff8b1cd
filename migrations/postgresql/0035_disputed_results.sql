-- As ../0035: the second, disagreeing report of a game and who made it.
ALTER TABLE games ADD COLUMN disputed_result TEXT;
ALTER TABLE games ADD COLUMN disputed_by INTEGER REFERENCES members(id);

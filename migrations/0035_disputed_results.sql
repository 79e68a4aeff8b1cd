-- Issue 30 §4: two reports of one game that disagree are remembered (the second report and who made it),
-- so /uitslagen and the director's notice at the deadline can list the disputed results until they are
-- settled.
ALTER TABLE games ADD COLUMN disputed_result TEXT;
ALTER TABLE games ADD COLUMN disputed_by INTEGER REFERENCES members(id);

-- Issue 34 §1: a member's chess federation as FIDE writes it (three letters: NED, GER), for the player
-- lines of the TRF file; taken from the FIDE or KNSB rating list by /ratings importeer (NULL: unknown,
-- the TRF file then gives the club's federation).
ALTER TABLE members ADD COLUMN federation TEXT;

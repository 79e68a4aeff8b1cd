-- Issue 31 §2: what the EGF results file needs of each NK player beyond the name: the club (at most 4
-- characters in the file), the country (two letters; NULL: the tournament's place's) and the EGF PIN
-- (8 digits), set with /nk speler Naam club=... land=... pin=....
ALTER TABLE nk_players ADD COLUMN club TEXT;
ALTER TABLE nk_players ADD COLUMN country TEXT;
ALTER TABLE nk_players ADD COLUMN egf_pin TEXT;

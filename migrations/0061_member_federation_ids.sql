-- Issue 34 §1: a member's federation identities, each optional: the KNSB relatienummer (digits), the FIDE
-- ID (digits) and the EGD PIN (8 digits), set with /speler Naam knsb=... fide=... egd=... and the member
-- import's columns 4-6; /ratings importeer refreshes the ratings of the members it finds by them. One
-- identity belongs to one member of a club.
ALTER TABLE members ADD COLUMN knsb_id TEXT;
ALTER TABLE members ADD COLUMN fide_id TEXT;
ALTER TABLE members ADD COLUMN egd_pin TEXT;
CREATE UNIQUE INDEX members_knsb_id ON members (club_id, knsb_id) WHERE knsb_id IS NOT NULL;
CREATE UNIQUE INDEX members_fide_id ON members (club_id, fide_id) WHERE fide_id IS NOT NULL;
CREATE UNIQUE INDEX members_egd_pin ON members (club_id, egd_pin) WHERE egd_pin IS NOT NULL;

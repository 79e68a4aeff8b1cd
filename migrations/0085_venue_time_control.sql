-- The club's time control (issue 45 §1): /speelavond speeltempo=90+30, shown on the website's Keizer
-- pages beside the dates and the venue; '' while the club has not said.
ALTER TABLE club_venues ADD COLUMN time_control TEXT NOT NULL DEFAULT '';

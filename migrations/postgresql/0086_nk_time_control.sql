-- The NK's time control (issue 45 §1): /nk nieuw Naam tempo=60+30, shown on the website's NK pages
-- beside its dates and venue; '' while the director has not said.
ALTER TABLE nk_tournaments ADD COLUMN time_control TEXT NOT NULL DEFAULT '';

-- Issue 30: /speler Naam terug stores the round a withdrawn player comes back from instead of erasing the
-- withdrawal, so the standings published for the rounds in between stay as they were.
ALTER TABLE season_players ADD COLUMN returned_from INTEGER;

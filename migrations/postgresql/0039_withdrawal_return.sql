-- As ../0039: the round a withdrawn player comes back from (/speler Naam terug).
ALTER TABLE season_players ADD COLUMN returned_from INTEGER;

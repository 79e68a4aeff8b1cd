-- As ../0002: a player's place in the start order when it is not by rating.
ALTER TABLE season_players ADD COLUMN position INTEGER;

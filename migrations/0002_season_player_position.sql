-- The start order of a season when it is not by rating (seed 004 Keizer rule a: last season's final
-- ranking): the player's place in that order, 1 first; NULL for players placed by rating.
ALTER TABLE season_players ADD COLUMN position INTEGER;

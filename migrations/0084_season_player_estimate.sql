-- Issue 44 §2: an unrated player's estimated rating, the director's choice (/speler Naam schatting=1500): it
-- places them in the start order (and a late joiner's start points) as a rating would, and nothing else;
-- NULL: none (an unrated player starts below the rated ones).
ALTER TABLE season_players ADD COLUMN estimate INTEGER;

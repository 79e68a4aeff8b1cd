-- As ../0078 (issue 45 §2): the moments a go game's record changed (a move, a pass, a mark, the agreement, a
-- resignation, a loss on time), one UTC ISO moment per line: the SGF's DT lists the days they fall on in
-- the club's time zone. Games stored before this have '' (their DT: the challenge's day and the last).
-- (Named moments_played, not *_at: the store's checks read a column ending in _at as one moment.)
ALTER TABLE go_games ADD COLUMN moments_played TEXT NOT NULL DEFAULT '';

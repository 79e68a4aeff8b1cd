-- As ../0078 (issue 45 §2): the moments a go game's record changed (a move, a pass, a mark, the agreement, a
-- resignation, a loss on time), one UTC ISO moment per line: the SGF's DT lists the days they fall on in
-- the club's time zone. Games stored before this have '' (their DT: the challenge's day and the last).
ALTER TABLE go_games ADD COLUMN played_at TEXT NOT NULL DEFAULT '';

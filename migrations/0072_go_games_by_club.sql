-- Issue 42 §1: the work a command may have made due is looked up for its own club only (the scheduler's
-- after_command); a club's running go games are found through this index, not by reading every club's.
CREATE INDEX go_games_club_status ON go_games (club_id, status);

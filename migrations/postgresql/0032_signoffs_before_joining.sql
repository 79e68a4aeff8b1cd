-- Issue 30: a member not in the season who typed /afmelden 3 and then /afmelden was put in the season
-- from round 3 with a sign-off for round 1, a state the Keizer engine cannot read (every standings and
-- pairing failed). /afmelden no longer enrols anyone; a player who already appears in an earlier round
-- (a sign-off, a game, a bye) is taken to have joined from that round.
UPDATE season_players SET joined_round = (
    SELECT MIN(r.number) FROM rounds r
    WHERE r.season_id = season_players.season_id AND (
        EXISTS (SELECT 1 FROM signoffs so WHERE so.round_id = r.id AND so.member_id = season_players.member_id)
        OR EXISTS (SELECT 1 FROM byes b WHERE b.round_id = r.id AND b.member_id = season_players.member_id)
        OR EXISTS (SELECT 1 FROM games g WHERE g.round_id = r.id
                   AND season_players.member_id IN (g.white_id, g.black_id))))
WHERE joined_round > (
    SELECT MIN(r.number) FROM rounds r
    WHERE r.season_id = season_players.season_id AND (
        EXISTS (SELECT 1 FROM signoffs so WHERE so.round_id = r.id AND so.member_id = season_players.member_id)
        OR EXISTS (SELECT 1 FROM byes b WHERE b.round_id = r.id AND b.member_id = season_players.member_id)
        OR EXISTS (SELECT 1 FROM games g WHERE g.round_id = r.id
                   AND season_players.member_id IN (g.white_id, g.black_id))));

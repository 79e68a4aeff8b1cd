-- Issue 30: the no-show rule (seed 004 j) is counted again from the stored rounds after every result, so a
-- corrected no-show lifts the automatic sign-off. A player who signed on again with /aanmelden counts from
-- the round after signed_on_after (the last paired round when they did), not from the season's start.
ALTER TABLE season_players ADD COLUMN signed_on_after INTEGER;
-- Who already signed on again after an automatic sign-off (a round of theirs has one, the flag is off)
-- counts from the round after the last paired one, as /aanmelden now stores it.
UPDATE season_players SET signed_on_after =
    (SELECT MAX(r.number) FROM rounds r WHERE r.season_id = season_players.season_id AND r.status = 'paired')
    WHERE auto_signed_off = 0 AND EXISTS (SELECT 1 FROM signoffs so JOIN rounds r ON r.id = so.round_id
        WHERE r.season_id = season_players.season_id AND so.member_id = season_players.member_id AND so.kind = 'auto');

-- As ../0038: the last paired round when a player signed on again after the no-show rule signed them off.
ALTER TABLE season_players ADD COLUMN signed_on_after INTEGER;
-- Who already signed on again after an automatic sign-off (a round of theirs has one, the flag is off)
-- counts from the round after the last paired one, as /aanmelden now stores it.
UPDATE season_players SET signed_on_after =
    (SELECT MAX(r.number) FROM rounds r WHERE r.season_id = season_players.season_id AND r.status = 'paired')
    WHERE auto_signed_off = 0 AND EXISTS (SELECT 1 FROM signoffs so JOIN rounds r ON r.id = so.round_id
        WHERE r.season_id = season_players.season_id AND so.member_id = season_players.member_id AND so.kind = 'auto');

-- Issue 20: a director withdraws an NK player (/nk terugtrekken Naam): not paired, never the bye, from
-- this round on; the games played stand.
ALTER TABLE nk_players ADD COLUMN withdrawn_from INTEGER;

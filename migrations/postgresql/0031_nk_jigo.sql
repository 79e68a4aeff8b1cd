-- A jigo as an NK result (issue 20): no winner and no double forfeit, half a point each. A player may
-- report one, and the opponent confirms it, as with a win.
ALTER TABLE nk_games ADD COLUMN jigo INTEGER NOT NULL DEFAULT 0;
ALTER TABLE nk_games ADD COLUMN reported_jigo INTEGER NOT NULL DEFAULT 0;

-- Issue 44 §1: postponed games (inhaalpartijen) of the Keizer competition (bot/keizer/postponed.py). A
-- game of a paired round the director postponed (/uitstel Naam [ronde] [tot=JJJJ-MM-DD]): it keeps its
-- pairing and its round; its result is entered later into that round. One row per postponed game, gone
-- with the game (a pairing taken back) or with /uitstel Naam ongedaan.
--   until_date: the date it is to be played by, as the director gave it (tot=); NULL: none given. On that
--     date's club evening its two players are left out of the round's pairing (they play the catch-up game).
--   due_at: when it is still not played, the directors are told once (reported_at) from this moment on.
CREATE TABLE postponed_games (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    until_date TEXT,
    due_at TEXT NOT NULL,
    created_at TEXT NOT NULL,
    reported_at TEXT
);
CREATE UNIQUE INDEX postponed_games_by_game ON postponed_games (game_id);
CREATE INDEX postponed_games_by_due ON postponed_games (due_at) WHERE reported_at IS NULL;

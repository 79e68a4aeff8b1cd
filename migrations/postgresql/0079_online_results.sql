-- Issue 43 §3: the results of the games made online, read back from lichess by the core's follower
-- (bot/core/online/follow.py; its store part bot/core/online/results_store.py). A 'created' row is followed
-- until its game ends ('finished') or its challenge expires without a game ('expired').
--   follow_at: when the follower next asks lichess about it (NULL: from made_at on).
--   game_status: lichess's status of the game as last seen (GameStatusName: 'started', 'mate', 'timeout', ...).
--   result: the result lichess's game says (1-0, 0-1, 1/2-1/2), when it says one.
--   outcome: what was done with the ended game: 'entered' (a confirmed result through the system's hook),
--     'kept' (the game had a result already: never written over), 'held' (timeout, cheat, aborted,
--     unknownFinish: the director decides), 'refused' (not the game that was made: reason), 'noshow' (nobody
--     came, or noStart: the director is proposed /nietverschenen).
--   reason: why held or refused (lichess's status, or the differences: colours, players, clock, rated, variant).
--   settled_at: when the outcome was recorded (with the system's result, in one transaction).
ALTER TABLE online_games ADD COLUMN follow_at TEXT;
ALTER TABLE online_games ADD COLUMN game_status TEXT;
ALTER TABLE online_games ADD COLUMN result TEXT;
ALTER TABLE online_games ADD COLUMN outcome TEXT;
ALTER TABLE online_games ADD COLUMN reason TEXT;
ALTER TABLE online_games ADD COLUMN settled_at TEXT;

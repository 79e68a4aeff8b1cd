-- Issue 43 §1: a season played online (/seizoen online=lichess tempo=15+10 beoordeeld=ja uiterlijk=22:00,
-- bot/keizer/online_settings.py). A row holds from its round on, until a row of a later round: a switch
-- (/seizoen online=lichess|uit ...) adds a row from the first round not yet published, so the rounds
-- already published keep what they had. platform: 'lichess', or NULL (played at the club: online=uit).
-- clock_limit and clock_increment: seconds (lichess's clock.limit, clock.increment); rated: 1 or 0;
-- latest_start: HH:MM local, the challenge's expiry (NULL: the end of the playing evening, /speelavond).
CREATE TABLE season_online (
    season_id INTEGER NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
    from_round INTEGER NOT NULL,
    platform TEXT CHECK (platform IN ('lichess')),
    clock_limit INTEGER,
    clock_increment INTEGER,
    rated INTEGER NOT NULL DEFAULT 0,
    latest_start TEXT,
    PRIMARY KEY (season_id, from_round)
);

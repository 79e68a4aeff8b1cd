-- NK championship tournaments (seed 000): a McMahon double elimination run from the chat.
CREATE TABLE nk_tournaments (
    id          INTEGER PRIMARY KEY,
    club_id     INTEGER NOT NULL REFERENCES clubs(id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    rounds      INTEGER NOT NULL DEFAULT 7 CHECK (rounds BETWEEN 1 AND 20),
    group_size  INTEGER NOT NULL DEFAULT 16 CHECK (group_size BETWEEN 2 AND 1000),
    status      TEXT NOT NULL DEFAULT 'registration' CHECK (status IN ('registration', 'running', 'finished')),
    created_at  TEXT NOT NULL,
    UNIQUE (club_id, name)
);

-- A registration: rating = highest EGF rating of the previous year; strength = the director's override;
-- earned = last year's earned right ('top' | 'group1'); confirmed = the director confirmed eligibility.
CREATE TABLE nk_players (
    tournament_id INTEGER NOT NULL REFERENCES nk_tournaments(id) ON DELETE CASCADE,
    member_id     INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    rating        INTEGER NOT NULL,
    strength      INTEGER,
    earned        TEXT CHECK (earned IN ('top', 'group1')),
    confirmed     INTEGER NOT NULL DEFAULT 0,
    created_at    TEXT NOT NULL,
    PRIMARY KEY (tournament_id, member_id)
);

CREATE TABLE nk_rounds (
    id            INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES nk_tournaments(id) ON DELETE CASCADE,
    number        INTEGER NOT NULL,
    bye_id        INTEGER REFERENCES members(id),
    paired_at     TEXT NOT NULL,
    UNIQUE (tournament_id, number)
);

CREATE TABLE nk_games (
    id              INTEGER PRIMARY KEY,
    round_id        INTEGER NOT NULL REFERENCES nk_rounds(id) ON DELETE CASCADE,
    board           INTEGER NOT NULL,
    black_id        INTEGER NOT NULL REFERENCES members(id),
    white_id        INTEGER NOT NULL REFERENCES members(id),
    winner_id       INTEGER REFERENCES members(id),
    forfeit         INTEGER NOT NULL DEFAULT 0,
    reported_winner INTEGER REFERENCES members(id),
    reported_by     INTEGER REFERENCES members(id),
    confirmed_at    TEXT,
    UNIQUE (round_id, board)
);

CREATE INDEX nk_games_round ON nk_games (round_id);

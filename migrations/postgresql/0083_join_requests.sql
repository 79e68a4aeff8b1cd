-- Issue 44 §2: a club may require the director's approval for new players (/seizoen aanmelden=goedkeuring,
-- stored in the season's settings). A chat account's /aanmelden as a new player of the season is then held
-- here until the director signs them on by name (/aanmelden Naam), which enrols them and removes the row.
CREATE TABLE join_requests (
    season_id     INTEGER NOT NULL REFERENCES seasons(id) ON DELETE CASCADE,
    member_id     INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    requested_at  TEXT NOT NULL,
    PRIMARY KEY (season_id, member_id)
);

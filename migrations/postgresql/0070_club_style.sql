-- Issue 35 §4: the club's own look on its website (/website stijl, director). clubs.colour is the club's
-- colour as #rrggbb (NULL: the standard look); clubs.logo is the stamp of its logo (NULL: none), part of
-- the club's record so every cached page of the club changes with it. The logo itself, made anew by the
-- bot as a PNG of at most 256 pixels a side (never the bytes that were sent), is in club_logos.
ALTER TABLE clubs ADD COLUMN colour TEXT CHECK (colour IS NULL OR (length(colour) = 7 AND colour LIKE '#%'));
ALTER TABLE clubs ADD COLUMN logo TEXT;
CREATE TABLE club_logos (
    club_id INTEGER PRIMARY KEY REFERENCES clubs(id) ON DELETE CASCADE,
    image BYTEA NOT NULL,
    stamp TEXT NOT NULL,
    set_at TEXT NOT NULL
);

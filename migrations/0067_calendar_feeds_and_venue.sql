-- Issue 34 §2: a member's personal calendar feed (/mijn kalender): a random token per member, in the feed's
-- address /c/<club>/kalender/<token>.ics. Stored as it is, so /mijn kalender can give the same address
-- again (a feed is read-only: it shows the member's rounds, games and sign-off deadlines); /mijn kalender
-- nieuw replaces it, and the old address stops working.
CREATE TABLE calendar_feeds (
    member_id   INTEGER PRIMARY KEY REFERENCES members(id) ON DELETE CASCADE,
    club_id     INTEGER NOT NULL REFERENCES clubs(id) ON DELETE CASCADE,
    token       TEXT NOT NULL UNIQUE,
    created_at  TEXT NOT NULL
);
-- The club's playing evening for the calendars (/speelavond locatie=... tijd=19:30-23:30): where the club
-- plays (the events' LOCATION) and from when to when (local times; none: 20:00-23:30, bot/keizer/venue.py).
CREATE TABLE club_venues (
    club_id     INTEGER PRIMARY KEY REFERENCES clubs(id) ON DELETE CASCADE,
    location    TEXT NOT NULL DEFAULT '',
    starts_at   TEXT,
    ends_at     TEXT
);

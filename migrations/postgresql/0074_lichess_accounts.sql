-- As ../0073 (issue 43 §1): each member's lichess account, one per member of a club (bot/core/club/lichess_accounts.py).
-- username: as lichess writes it (its capitals); user_id: the same in lower case, lichess's own id of the
-- account (lichess usernames are compared without regard to case), unique in a club: two members cannot
-- hold one lichess account. linked_by: 'director' (/speler Naam lichess=..., the member import) or
-- 'lichess' (the member logged in with lichess through /koppel lichess).
CREATE TABLE lichess_accounts (
    member_id INTEGER PRIMARY KEY REFERENCES members (id) ON DELETE CASCADE,
    club_id INTEGER NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    username TEXT NOT NULL,
    user_id TEXT NOT NULL,
    linked_by TEXT NOT NULL CHECK (linked_by IN ('director', 'lichess')),
    linked_at TEXT NOT NULL
);
CREATE UNIQUE INDEX lichess_accounts_by_user ON lichess_accounts (club_id, user_id);
-- /koppel lichess: a member's personal link to the club's website that runs "log in with lichess"
-- (bot/web/lichess_login.py). Only the hash of the link's secret is kept; one link per member (a new one
-- replaces the old), good until expires_at and for one login. Opening it starts a login: state_hash
-- (the hash of the OAuth state, which the browser also holds in a cookie) and verifier (the PKCE
-- code_verifier, never shown in an address) are kept until lichess sends the member back.
CREATE TABLE lichess_logins (
    member_id INTEGER PRIMARY KEY REFERENCES members (id) ON DELETE CASCADE,
    club_id INTEGER NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    state_hash TEXT,
    verifier TEXT
);
CREATE UNIQUE INDEX lichess_logins_by_token ON lichess_logins (token_hash);
CREATE UNIQUE INDEX lichess_logins_by_state ON lichess_logins (state_hash) WHERE state_hash IS NOT NULL;

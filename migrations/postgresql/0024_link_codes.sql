-- One-time codes with which a director lets a chat account become an existing member (/koppel Anna):
-- the member redeems it with /aanmelden CODE. Only a hash of the code is kept; one code per member
-- (a new code replaces the old one); a code is good for seven days and for one use.
CREATE TABLE link_codes (
    member_id INTEGER PRIMARY KEY REFERENCES members (id) ON DELETE CASCADE,
    club_id INTEGER NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    code_hash TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    created_by TEXT NOT NULL
);
CREATE UNIQUE INDEX link_codes_by_hash ON link_codes (club_id, code_hash);

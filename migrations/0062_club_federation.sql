-- Issue 34 §1: what a rating office's TRF file says of the club beyond its name: the city (line 022), the
-- federation (032, three letters, NED), the chief arbiter (102) and the deputy arbiter (112), set with
-- /club plaats=... federatie=... arbiter=... hulparbiter=...; a row only for a club that set one.
CREATE TABLE club_federation (
    club_id        INTEGER PRIMARY KEY REFERENCES clubs(id) ON DELETE CASCADE,
    city           TEXT,
    federation     TEXT,
    arbiter        TEXT,
    deputy_arbiter TEXT
);

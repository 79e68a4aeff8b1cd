-- As ../0071: nothing to change here. PostgreSQL's schema has had these indexes since 0001_initial.sql, and
-- its PRIMARY KEY (web_links.token_hash) is NOT NULL by itself; SQLite's schema now says the same
-- (tests/bot/store/test_one_schema.py compares the two after every migration). The statement below is
-- there because the runner sends the file as it is, and asyncpg refuses a script that holds none.
SELECT 1;

-- Every season counts its changes: whatever changes what its standings, pairings or prizes show bumps
-- seasons.version, by triggers, so no code path can forget it. Reads cache what they compute by
-- (season, version) (docs/performance.md).
ALTER TABLE seasons ADD COLUMN version INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER season_version_season AFTER UPDATE OF name, kind, rounds_count, deadline_time, publish_time,
    timezone, settings_json, status ON seasons
BEGIN UPDATE seasons SET version = version + 1 WHERE id = NEW.id; END;

CREATE TRIGGER season_version_rounds_insert AFTER INSERT ON rounds
BEGIN UPDATE seasons SET version = version + 1 WHERE id = NEW.season_id; END;
CREATE TRIGGER season_version_rounds_update AFTER UPDATE ON rounds
BEGIN UPDATE seasons SET version = version + 1 WHERE id IN (OLD.season_id, NEW.season_id); END;
CREATE TRIGGER season_version_rounds_delete AFTER DELETE ON rounds
BEGIN UPDATE seasons SET version = version + 1 WHERE id = OLD.season_id; END;

CREATE TRIGGER season_version_players_insert AFTER INSERT ON season_players
BEGIN UPDATE seasons SET version = version + 1 WHERE id = NEW.season_id; END;
CREATE TRIGGER season_version_players_update AFTER UPDATE ON season_players
BEGIN UPDATE seasons SET version = version + 1 WHERE id IN (OLD.season_id, NEW.season_id); END;
CREATE TRIGGER season_version_players_delete AFTER DELETE ON season_players
BEGIN UPDATE seasons SET version = version + 1 WHERE id = OLD.season_id; END;

CREATE TRIGGER season_version_games_insert AFTER INSERT ON games
BEGIN UPDATE seasons SET version = version + 1 WHERE id = (SELECT season_id FROM rounds WHERE id = NEW.round_id); END;
CREATE TRIGGER season_version_games_update AFTER UPDATE ON games
BEGIN UPDATE seasons SET version = version + 1
    WHERE id IN (SELECT season_id FROM rounds WHERE id IN (OLD.round_id, NEW.round_id)); END;
CREATE TRIGGER season_version_games_delete AFTER DELETE ON games
BEGIN UPDATE seasons SET version = version + 1 WHERE id = (SELECT season_id FROM rounds WHERE id = OLD.round_id); END;

CREATE TRIGGER season_version_byes_insert AFTER INSERT ON byes
BEGIN UPDATE seasons SET version = version + 1 WHERE id = (SELECT season_id FROM rounds WHERE id = NEW.round_id); END;
CREATE TRIGGER season_version_byes_delete AFTER DELETE ON byes
BEGIN UPDATE seasons SET version = version + 1 WHERE id = (SELECT season_id FROM rounds WHERE id = OLD.round_id); END;

CREATE TRIGGER season_version_signoffs_insert AFTER INSERT ON signoffs
BEGIN UPDATE seasons SET version = version + 1 WHERE id = (SELECT season_id FROM rounds WHERE id = NEW.round_id); END;
CREATE TRIGGER season_version_signoffs_update AFTER UPDATE ON signoffs
BEGIN UPDATE seasons SET version = version + 1
    WHERE id IN (SELECT season_id FROM rounds WHERE id IN (OLD.round_id, NEW.round_id)); END;
CREATE TRIGGER season_version_signoffs_delete AFTER DELETE ON signoffs
BEGIN UPDATE seasons SET version = version + 1 WHERE id = (SELECT season_id FROM rounds WHERE id = OLD.round_id); END;

-- a member's name or rating shows in every season they play in
CREATE TRIGGER season_version_members AFTER UPDATE OF name, rating ON members
BEGIN UPDATE seasons SET version = version + 1
    WHERE id IN (SELECT season_id FROM season_players WHERE member_id = NEW.id); END;

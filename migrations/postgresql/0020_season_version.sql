-- As ../0020: every season counts its changes (seasons.version), bumped by triggers, so no code path can
-- forget it; reads cache what they compute by (season, version). PostgreSQL's triggers call functions.
ALTER TABLE seasons ADD COLUMN version INTEGER NOT NULL DEFAULT 0;

CREATE FUNCTION season_version_own() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.version := OLD.version + 1;
    RETURN NEW;
END $$;

-- a row with a season_id (rounds, season_players)
CREATE FUNCTION season_version_by_season() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        UPDATE seasons SET version = version + 1 WHERE id = OLD.season_id;
    END IF;
    IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.season_id IS DISTINCT FROM OLD.season_id) THEN
        UPDATE seasons SET version = version + 1 WHERE id = NEW.season_id;
    END IF;
    RETURN NULL;
END $$;

-- a row with a round_id (games, byes, signoffs)
CREATE FUNCTION season_version_by_round() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE seasons SET version = version + 1 WHERE id = (SELECT season_id FROM rounds WHERE id = NEW.round_id);
    ELSIF TG_OP = 'DELETE' THEN
        UPDATE seasons SET version = version + 1 WHERE id = (SELECT season_id FROM rounds WHERE id = OLD.round_id);
    ELSE
        UPDATE seasons SET version = version + 1
            WHERE id IN (SELECT season_id FROM rounds WHERE id IN (OLD.round_id, NEW.round_id));
    END IF;
    RETURN NULL;
END $$;

-- a member's name or rating shows in every season they play in
CREATE FUNCTION season_version_member() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE seasons SET version = version + 1
        WHERE id IN (SELECT season_id FROM season_players WHERE member_id = NEW.id);
    RETURN NULL;
END $$;

CREATE TRIGGER season_version_season BEFORE UPDATE OF name, kind, rounds_count, deadline_time, publish_time,
    timezone, settings_json, status ON seasons FOR EACH ROW EXECUTE FUNCTION season_version_own();
CREATE TRIGGER season_version_rounds AFTER INSERT OR UPDATE OR DELETE ON rounds
    FOR EACH ROW EXECUTE FUNCTION season_version_by_season();
CREATE TRIGGER season_version_players AFTER INSERT OR UPDATE OR DELETE ON season_players
    FOR EACH ROW EXECUTE FUNCTION season_version_by_season();
CREATE TRIGGER season_version_games AFTER INSERT OR UPDATE OR DELETE ON games
    FOR EACH ROW EXECUTE FUNCTION season_version_by_round();
CREATE TRIGGER season_version_byes AFTER INSERT OR DELETE ON byes
    FOR EACH ROW EXECUTE FUNCTION season_version_by_round();
CREATE TRIGGER season_version_signoffs AFTER INSERT OR UPDATE OR DELETE ON signoffs
    FOR EACH ROW EXECUTE FUNCTION season_version_by_round();
CREATE TRIGGER season_version_members AFTER UPDATE OF name, rating ON members
    FOR EACH ROW EXECUTE FUNCTION season_version_member();

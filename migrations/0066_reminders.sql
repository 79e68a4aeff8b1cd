-- Issue 34 §2: private reminders. A member may turn them off (/mijn meldingen herinneringen uit: reminders
-- 0; on by default, unlike the pairing notices of members.notify). A paired round whose players were
-- reminded of a missing result (the day after its playing day) has results_reminded_at, set in the
-- transaction that queues the reminders, so each goes once. The rounds paired before this migration
-- count as reminded: a bot updated mid-season does not remind of old rounds.
ALTER TABLE members ADD COLUMN reminders INTEGER NOT NULL DEFAULT 1;
ALTER TABLE rounds ADD COLUMN results_reminded_at TEXT;
UPDATE rounds SET results_reminded_at = COALESCE(paired_at, publish_at) WHERE status = 'paired';

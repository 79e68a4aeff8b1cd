-- Exactly once: before an announcement is first posted, the moment is recorded (attempted_at) with the
-- platform reference of the club's latest posted announcement (after_ref), committed. If the bot dies
-- between posting and recording the post (message_ref, sent_at), the next attempt knows the post may
-- already be there and, where the platform lets it (Discord: the channel's history after after_ref),
-- looks before posting again.
ALTER TABLE announcements ADD COLUMN attempted_at TEXT;
ALTER TABLE announcements ADD COLUMN after_ref TEXT;
ALTER TABLE announcements ADD COLUMN message_ref TEXT;

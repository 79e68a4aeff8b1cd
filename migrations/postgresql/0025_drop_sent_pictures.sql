-- A sent announcement's picture is on the platform already: the outbox keeps its text and message
-- reference, not its PNG (a five-year club kept 42 MB of them). From now on the store drops the picture
-- when it records the post as sent; this clears what earlier versions kept.
UPDATE announcements SET image = NULL, picture = NULL WHERE sent_at IS NOT NULL;

-- Issue 17: the club's website, switched by the director (/website aan|uit|besloten): public pages, no
-- pages (the default: names are not published until the club says so), or pages for members only.
ALTER TABLE clubs ADD COLUMN website TEXT NOT NULL DEFAULT 'off' CHECK (website IN ('on', 'off', 'members'));

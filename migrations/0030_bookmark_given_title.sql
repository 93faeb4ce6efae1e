-- +goose Up

-- The title an import or a phone's favourite gave a Series the Reader
-- bookmarks (issue 46's honest states; docs/adr/0021-works-link-by-ids.md,
-- addendum "a title from an import"). It is the Reader's word, so it stays
-- on the Reader's bookmark and never reaches series.title, which every
-- Reader shares: it names the card, the Series page and the Work page only
-- while the Lane has read no title. Cleaned as a line (safetext.Line) when
-- stored; NULL when no import named one.
ALTER TABLE bookmarks ADD COLUMN given_title text
    CHECK (given_title IS NULL OR (char_length(given_title) BETWEEN 1 AND 300));

-- Undo of Remove puts a given title back with the rest of the bookmark.
ALTER TABLE bookmark_undo_items ADD COLUMN given_title text
    CHECK (given_title IS NULL OR (char_length(given_title) BETWEEN 1 AND 300));

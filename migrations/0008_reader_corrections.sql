-- +goose Up

-- Who added a bookmark: 'reader' for an explicit add (the API, the library
-- page), 'read' for one a reported read created (reading is bookmarking).
-- The library page marks the second kind "added from a read" so a Reader
-- can drop bookmarks a page script forged. A constant default keeps the
-- ALTER instant; existing rows count as the Reader's own.
ALTER TABLE bookmarks ADD COLUMN added_by text NOT NULL DEFAULT 'reader'
    CHECK (added_by IN ('reader', 'read'));

-- A Reader's preference "add Series I read": when false, a read of a
-- Series the Reader has not bookmarked creates nothing.
ALTER TABLE readers ADD COLUMN auto_add_reads boolean NOT NULL DEFAULT true;

-- +goose Down
ALTER TABLE readers DROP COLUMN auto_add_reads;
ALTER TABLE bookmarks DROP COLUMN added_by;

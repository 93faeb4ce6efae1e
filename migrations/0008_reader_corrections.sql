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

-- A slow Series has only ever read not_found (it never read ok: no
-- latest_seen_at) and no Reader bookmarked it or moved Progress on it for
-- a week, as of its last read. The Lanes read it at most once a day
-- instead of at its Site's Rest, so junk bookmarks cannot speed a Lane up
-- (docs/adr/0018-forged-reads-and-junk-series.md). The Lane sets it with
-- each failure it records; a good read clears it.
ALTER TABLE series ADD COLUMN slow boolean NOT NULL DEFAULT false;
CREATE INDEX series_slow_idx ON series (site, latest_checked_at) WHERE slow;

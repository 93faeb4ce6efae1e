-- +goose Up

-- Who caused a Series: the Reader whose bookmark or read created it (0 when
-- unknown: rows from before this migration, or created outside a Reader's
-- request). The Lanes read never-checked Series round-robin by this column,
-- so one Reader's flood of new Series cannot starve another Reader's new
-- bookmark (docs/adr/0010-fair-due-order-and-reader-limits.md). A constant
-- default makes this ALTER instant.
ALTER TABLE series ADD COLUMN created_by bigint NOT NULL DEFAULT 0;

-- The never-checked arm of the due query, per Reader, oldest first. Only
-- never-checked, unforced rows are in it, so it stays small.
CREATE INDEX series_unchecked_by_idx ON series (site, created_by, created_at, series_id)
    WHERE latest_checked_at IS NULL AND force_poll_at IS NULL;

-- Each Reader's allowance of new Series: a token bucket refilled at the
-- hourly rate up to that same number. Kept apart from the series table so
-- deleting Series (orphan removal) gives no allowance back.
CREATE TABLE reader_limits (
    reader_id bigint      PRIMARY KEY REFERENCES readers (id) ON DELETE CASCADE,
    tokens    float8      NOT NULL,
    at        timestamptz NOT NULL
);

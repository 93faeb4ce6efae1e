-- +goose Up

-- The admin API's behind-by needs the oldest never-checked Series of a Site
-- (counted from created_at). Never-checked rows are few, so a partial index
-- answers that without visiting the heap.
CREATE INDEX series_unchecked_idx ON series (site, created_at) WHERE latest_checked_at IS NULL;

-- +goose Down
DROP INDEX series_unchecked_idx;

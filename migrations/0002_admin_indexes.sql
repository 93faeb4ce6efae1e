-- +goose Up

-- The admin API's behind-by needs the oldest never-checked Series of a Site
-- (counted from created_at). Never-checked rows are few, so a partial index
-- answers that without visiting the heap.
CREATE INDEX series_unchecked_idx ON series (site, created_at) WHERE latest_checked_at IS NULL;

-- The failing worklist of one Site, oldest failure first, across outcomes
-- (series_id completes the list's ORDER BY, so no sort step is needed).
CREATE INDEX poll_failures_site_since_idx ON poll_failures (site, failing_since, series_id);

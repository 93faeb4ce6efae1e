-- +goose Up

-- Updates (docs/CONTEXT.md) reads the Chapter Events newest first and
-- stops at its page: an index in that order, ties broken by id as the
-- page's cursor breaks them. It serves every range on seen_at the old
-- one-column index served, so that one goes.
CREATE INDEX chapter_events_seen_id_idx ON chapter_events (seen_at, id);
DROP INDEX chapter_events_seen_idx;

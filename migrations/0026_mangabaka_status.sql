-- +goose Up

-- MangaBaka's word on a story's status (docs/CONTEXT.md, "Status";
-- docs/adr/0031-status-and-reading-states.md, second addendum), kept apart
-- from the Series' own page's (series.status): the crosswalk
-- (backend/crosswalk) writes it from each answer that names the story,
-- fresh or cached, for every Series carrying one of the answer's ids as a
-- shared id, and a Site's read never touches it. The story's status is
-- the most advanced of the two, and a Work's the most advanced over its
-- members' both (store/status.go). mb_status NULL: MangaBaka said
-- nothing (no answer naming the story, or no status in it);
-- mb_final_chapter is total_chapters of a completed story, in the
-- Series' numbers as FillStatus took it; mb_status_at the fetch time of
-- the answer that last set them.
ALTER TABLE series
    ADD COLUMN mb_status text CHECK (mb_status IN ('releasing', 'completed', 'hiatus', 'cancelled', 'unknown')),
    ADD COLUMN mb_final_chapter numeric,
    ADD COLUMN mb_status_at timestamptz;

-- The cache keeps what the answer said of the story, so an id answered
-- from it gives the status as a fresh lookup would. story_status NULL:
-- the answer names no story (404, none or several active series, refused)
-- or gives it no status.
ALTER TABLE crosswalk_lookups
    ADD COLUMN story_status text CHECK (story_status IN ('releasing', 'completed', 'hiatus', 'cancelled', 'unknown')),
    ADD COLUMN final_chapter numeric;

-- The crosswalk's refresh (store.QueueCrosswalkRefresh) looks for the
-- Series MangaBaka gave a status to.
CREATE INDEX series_mb_status_idx ON series (site, series_id) WHERE mb_status IS NOT NULL;

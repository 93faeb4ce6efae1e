-- +goose Up

-- A story's publication status (docs/CONTEXT.md, "Status";
-- docs/adr/0031-status-and-reading-states.md). status is what the Series'
-- own page said at its last good read that carried one (NULL: never said);
-- final_chapter its final chapter's number (NULL: none known).
ALTER TABLE series
    ADD COLUMN status text CHECK (status IN ('releasing', 'completed', 'hiatus', 'cancelled', 'unknown')),
    ADD COLUMN final_chapter numeric;

-- A shared Work's status: the most advanced one its members report
-- (store/status.go). NULL until a member's read first reports one. Its
-- final chapter is not stored: each Reader's Work numbers are their own
-- (migration 0018), so it is worked out from the members' when read.
ALTER TABLE works
    ADD COLUMN status text CHECK (status IN ('releasing', 'completed', 'hiatus', 'cancelled', 'unknown'));

-- A Reader's reading state of a story, on each of their bookmarks of it
-- (a Work's state is set on every bookmark of its members). state_by_hand:
-- the Reader set it (the API, the library page or an import); a tracker's
-- pull sets only a state never set by hand.
ALTER TABLE bookmarks
    ADD COLUMN state text NOT NULL DEFAULT 'reading'
        CHECK (state IN ('reading', 'plan', 'on_hold', 'dropped', 'completed', 'rereading')),
    ADD COLUMN state_by_hand boolean NOT NULL DEFAULT false,
    ADD COLUMN state_at timestamptz;

-- A change of a story's status worth telling (completed, hiatus,
-- cancelled, releasing again): one row per change of a shared Work
-- (work_id) or of a lone Series (work_id NULL), named by the Series that
-- says the new status (its final chapter in its own numbers).
CREATE TABLE status_changes (
    id            bigserial   PRIMARY KEY,
    work_id       bigint      REFERENCES works (id) ON DELETE CASCADE,
    site          text        NOT NULL,
    series_id     text        NOT NULL,
    status        text        NOT NULL,
    was           text        NOT NULL,
    final_chapter numeric,
    changed_at    timestamptz NOT NULL,
    FOREIGN KEY (site, series_id) REFERENCES series (site, series_id) ON DELETE CASCADE
);

-- Each Reader following the story when it changed is owed one line in
-- their next Digest: the primary key keeps it to one per (Reader, change).
CREATE TABLE reader_status_notices (
    reader_id  bigint      NOT NULL REFERENCES readers (id) ON DELETE CASCADE,
    change_id  bigint      NOT NULL REFERENCES status_changes (id) ON DELETE CASCADE,
    changed_at timestamptz NOT NULL,
    done_at    timestamptz,
    PRIMARY KEY (reader_id, change_id)
);
CREATE INDEX reader_status_notices_owed_idx ON reader_status_notices (reader_id) WHERE done_at IS NULL;

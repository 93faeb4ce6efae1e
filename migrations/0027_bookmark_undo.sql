-- +goose Up

-- Undo of Remove (docs/adr/0033-undo-of-remove.md). A Reader's Remove on
-- the pages (one card, a Work, or several selected) keeps what Undo puts
-- back: each removed bookmark row as it was (notice mode, reading state,
-- who added it, when) and its Progress. One hold per Reader: the next
-- Remove replaces it, and it ends at expires_at (ten minutes). While it
-- holds, a Series no other Reader bookmarks is not deleted (it would take
-- its Chapter Events, ids, covers and the Reader's Work links and unlinks
-- with it); when the hold ends, such a Series goes as Remove always did.
-- token is the hold's random name, carried by the Undo form: an Undo of a
-- hold since replaced finds no match.
CREATE TABLE bookmark_undo (
    reader_id  bigint      PRIMARY KEY REFERENCES readers (id) ON DELETE CASCADE,
    token      text        NOT NULL,
    expires_at timestamptz NOT NULL
);
CREATE INDEX bookmark_undo_expires_idx ON bookmark_undo (expires_at);

-- One removed bookmark of a hold, its columns as bookmarks has them and
-- its Progress (progress_number NULL: it had none).
CREATE TABLE bookmark_undo_items (
    reader_id         bigint      NOT NULL REFERENCES bookmark_undo (reader_id) ON DELETE CASCADE,
    site              text        NOT NULL,
    series_id         text        NOT NULL,
    created_at        timestamptz NOT NULL,
    notify_mode       text        NOT NULL,
    notify_pile       integer     NOT NULL,
    notify_pile_days  integer     NOT NULL,
    added_by          text        NOT NULL,
    state             text        NOT NULL,
    state_by_hand     boolean     NOT NULL,
    state_at          timestamptz,
    progress_number   numeric,
    progress_url      text        NOT NULL DEFAULT '',
    progress_read_at  timestamptz,
    progress_updated_at timestamptz,
    progress_source   text        NOT NULL DEFAULT 'reader',
    PRIMARY KEY (reader_id, site, series_id),
    FOREIGN KEY (site, series_id) REFERENCES series (site, series_id) ON DELETE CASCADE
);
-- A held Series' holders (the orphan check of every Remove).
CREATE INDEX bookmark_undo_items_series_idx ON bookmark_undo_items (site, series_id);

-- What the Reader's last tracker pull did, in words on the settings page:
-- how many bookmarks it moved forward (NULL: no pull since this column).
ALTER TABLE tracker_accounts ADD COLUMN last_pull_moved integer;

-- +goose Up

-- Phone sync (issue 43, docs/adr/0028-phone-sync-stores-v1-verbatim.md):
-- mangabookmark is the Reader's SyncYomi server.

-- A token's scope: 'reader' (every route but the sync routes) or 'sync'
-- (the sync routes only: the key a phone app holds). A Reader holds at
-- most one live sync key; minting one revokes the one before.
ALTER TABLE tokens ADD COLUMN scope text NOT NULL DEFAULT 'reader'
    CHECK (scope IN ('reader', 'sync'));
CREATE UNIQUE INDEX tokens_one_sync_key_idx ON tokens (reader_id)
    WHERE scope = 'sync' AND revoked_at IS NULL;

-- A read a phone's library carried moves Progress with source 'sync'.
ALTER TABLE progress DROP CONSTRAINT progress_source_check,
    ADD CONSTRAINT progress_source_check CHECK (source IN ('reader', 'anilist', 'sync'));

-- One stored library per Reader: the inflated protobuf of the last
-- upload, sealed under a key derived from TOKEN_KEY (library_sealed; NULL
-- when nothing is stored), its ETag as SyncYomi mints it (uuid=<uuid4>),
-- its sizes as received and inflated, and what reading it did.
CREATE TABLE phone_sync (
    reader_id      bigint      PRIMARY KEY REFERENCES readers (id) ON DELETE CASCADE,
    add_favorites  boolean     NOT NULL DEFAULT true,
    library_sealed bytea,
    etag           text        NOT NULL DEFAULT '' CHECK (length(etag) <= 64),
    received_bytes bigint      NOT NULL DEFAULT 0 CHECK (received_bytes >= 0),
    stored_bytes   bigint      NOT NULL DEFAULT 0 CHECK (stored_bytes >= 0),
    last_upload_at timestamptz,
    last_result    jsonb,
    progress_moved bigint      NOT NULL DEFAULT 0 CHECK (progress_moved >= 0),
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    CHECK ((library_sealed IS NULL) = (etag = ''))
);
-- Sealed bytes do not compress: stored out of line without PostgreSQL's
-- attempt at compressing them (which cost seconds on a 10 MB library).
ALTER TABLE phone_sync ALTER COLUMN library_sealed SET STORAGE EXTERNAL;

-- The devices that synced (the X-Device-ID a client sends; a stable
-- client sends none and is recorded as ''), bounded per Reader by the
-- store (store.MaxSyncDevices).
CREATE TABLE phone_sync_devices (
    reader_id    bigint      NOT NULL REFERENCES phone_sync (reader_id) ON DELETE CASCADE,
    device_id    text        NOT NULL CHECK (length(device_id) <= 128),
    name         text        NOT NULL DEFAULT '' CHECK (length(name) <= 128),
    last_sync_at timestamptz NOT NULL,
    PRIMARY KEY (reader_id, device_id)
);

-- Uploads per Reader and day, for /admin and mbctl (uploads a day).
CREATE TABLE phone_sync_days (
    reader_id      bigint NOT NULL REFERENCES readers (id) ON DELETE CASCADE,
    day            date   NOT NULL,
    uploads        int    NOT NULL DEFAULT 0,
    progress_moved int    NOT NULL DEFAULT 0,
    PRIMARY KEY (day, reader_id)
);

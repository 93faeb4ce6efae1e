-- +goose Up

-- SyncYomi protocol v2 (docs/adr/0029-phone-sync-v2-merges.md): the server
-- merges a Reader's library item by item, as the SyncYomi server does
-- (docs/sources.md (phone sync) §3). One row per Reader who merged: seq
-- is the Reader's cursor, raised by one for each merge that wrote;
-- reads_checked_at is when a merge last asked which stored chapters reads
-- made elsewhere passed (a merge asks again only after a Progress or an
-- offset of the Reader changed since, or when it stored a new manga or
-- chapter).
CREATE TABLE sync_v2_libraries (
    reader_id        bigint PRIMARY KEY REFERENCES readers (id) ON DELETE CASCADE,
    seq              bigint NOT NULL DEFAULT 0 CHECK (seq >= 0),
    reads_checked_at timestamptz,
    updated_at       timestamptz NOT NULL DEFAULT now()
);

-- One item of a Reader's library: a manga (without its chapters), a
-- chapter, a category or one setting. What it is and says is sealed
-- (AES-GCM under a key derived from TOKEN_KEY, bound to the row); in the
-- clear are only keyed hashes (of the item's key, its manga's key, its
-- content and the device that wrote it) and the numbers the merge rules
-- compare, so nothing here names a manga. Items are never deleted by a
-- merge (absence never deletes); a category tombstone is deleted = true.
CREATE TABLE sync_v2_items (
    reader_id   bigint   NOT NULL REFERENCES sync_v2_libraries (reader_id) ON DELETE CASCADE,
    kind        smallint NOT NULL CHECK (kind BETWEEN 1 AND 9),
    key_hash    bytea    NOT NULL CHECK (length(key_hash) = 16),
    parent_hash bytea    CHECK (length(parent_hash) = 16),
    version     bigint   NOT NULL,
    modified_at bigint   NOT NULL,
    deleted     boolean  NOT NULL DEFAULT false,
    digest      bytea    NOT NULL CHECK (length(digest) = 16),
    origin      bytea    NOT NULL CHECK (length(origin) = 16),
    seq         bigint   NOT NULL CHECK (seq > 0),
    sealed      bytea    NOT NULL,
    PRIMARY KEY (reader_id, kind, key_hash)
);
CREATE INDEX sync_v2_items_seq_idx ON sync_v2_items (reader_id, seq);
CREATE INDEX sync_v2_items_parent_idx ON sync_v2_items (reader_id, parent_hash)
    WHERE parent_hash IS NOT NULL;

-- +goose Up

-- Phone sync reads in what changed (issue 43; docs/adr/0035-phone-sync-reads-what-changed.md).

-- What the last read-in of a Reader's v1 library covered: one 64-bit
-- digest per manga whose reading in is done (not refused by the limits),
-- with a flag for manga on one of the Sites, sealed under a key derived
-- from TOKEN_KEY like the library (NULL: read everything next time). An
-- upload reads in only the manga whose digest is not here.
ALTER TABLE phone_sync ADD COLUMN read_digests bytea;

-- A 64-bit digest of the stored library's bytes, sealed the same way
-- (NULL: unknown). An upload of the very bytes stored (an app start)
-- renews the ETag and the times without sealing and writing the library
-- again.
ALTER TABLE phone_sync ADD COLUMN library_digest bytea;

-- The bytes a Reader's v2 library holds (its items, sealed), kept by
-- each merge's write so /admin, mbctl and the settings card count v2 too.
ALTER TABLE sync_v2_libraries ADD COLUMN stored_bytes bigint NOT NULL DEFAULT 0
    CHECK (stored_bytes >= 0);
UPDATE sync_v2_libraries l SET stored_bytes = coalesce(
    (SELECT sum(octet_length(i.sealed)) FROM sync_v2_items i WHERE i.reader_id = l.reader_id), 0);

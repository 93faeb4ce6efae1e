-- +goose Up

-- One row per Site whose Lane has read its "latest updates" listing
-- (docs/adr/0015): when it last did and how that ended, how many failures
-- in a row, how many Series the last good read made due, how many times a
-- listing overflowed (page 2 did not reach what the last look saw), and the
-- keys of the entries the last good look saw, newest first (the overlap
-- mark). The listing never writes a Latest Chapter; it only moves a
-- Series' check time back to the due cutoff.
CREATE TABLE lane_listings (
    site         text        PRIMARY KEY,
    last_at      timestamptz,
    last_outcome text        NOT NULL DEFAULT '',
    failures     integer     NOT NULL DEFAULT 0,
    hinted       integer     NOT NULL DEFAULT 0,
    overflows    bigint      NOT NULL DEFAULT 0,
    seen         text[]      NOT NULL DEFAULT '{}',
    updated_at   timestamptz NOT NULL DEFAULT now()
);

-- A pass says whether it read the listing and how many Series that made due.
ALTER TABLE poll_passes
    ADD COLUMN listing boolean NOT NULL DEFAULT false,
    ADD COLUMN hinted  integer NOT NULL DEFAULT 0;

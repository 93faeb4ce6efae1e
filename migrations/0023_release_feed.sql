-- +goose Up

-- The release feed (docs/adr/0030-release-feed-hints.md): MangaUpdates'
-- daily release list, read every 10 minutes by one process at a time, hints
-- the followed Series its releases name, as a listing does (ADR 0015): it
-- only moves a Series' check time back to the due cutoff, never writes a
-- Latest Chapter.
--
-- One row: when the next read may start (a process claims a read by moving
-- next_at forward, so two processes never read the same interval), when
-- the last read ended and how (outcome, reason, failures in a row), how
-- many releases it took in, and the ids of the releases seen at the last
-- good read, newest first (a release seen before never hints again).
CREATE TABLE release_feed (
    id           boolean     PRIMARY KEY DEFAULT true CHECK (id),
    next_at      timestamptz,
    last_read_at timestamptz,
    last_outcome text        NOT NULL DEFAULT '',
    last_reason  text        NOT NULL DEFAULT '' CHECK (length(last_reason) <= 300),
    failures     integer     NOT NULL DEFAULT 0,
    releases     integer     NOT NULL DEFAULT 0,
    seen         bigint[]    NOT NULL DEFAULT '{}',
    updated_at   timestamptz NOT NULL DEFAULT now()
);

-- Per Site: how many Series the feed's last good read made due there, and
-- when a read last made any due (a browser Lane's wake gate opens for it,
-- as for its own listing's hint).
CREATE TABLE release_feed_sites (
    site       text        PRIMARY KEY,
    hinted     integer     NOT NULL DEFAULT 0,
    hinted_at  timestamptz,
    updated_at timestamptz NOT NULL DEFAULT now()
);

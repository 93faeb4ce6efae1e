-- +goose Up

-- A Series is one manga on one Site, known by the Site's own id. It exists
-- while at least one Reader bookmarks it; the Lanes poll every row.
CREATE TABLE series (
    site               text        NOT NULL CHECK (site <> ''),
    series_id          text        NOT NULL CHECK (series_id <> ''),
    url                text        NOT NULL,
    title              text        NOT NULL DEFAULT '',
    cover_url          text        NOT NULL DEFAULT '',
    latest_number      numeric,
    latest_title       text        NOT NULL DEFAULT '',
    latest_url         text        NOT NULL DEFAULT '',
    latest_released_at timestamptz,
    latest_seen_at     timestamptz,
    latest_checked_at  timestamptz,
    force_poll_at      timestamptz,
    created_at         timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (site, series_id)
);
-- The due query: oldest (or never) checked first, per Site.
CREATE INDEX series_due_idx ON series (site, latest_checked_at NULLS FIRST);
-- Pending Forced Polls are few; a partial index finds them without a scan.
CREATE INDEX series_forced_idx ON series (site, force_poll_at) WHERE force_poll_at IS NOT NULL;

CREATE TABLE readers (
    id            bigserial   PRIMARY KEY,
    discord_id    text        NOT NULL UNIQUE CHECK (discord_id <> ''),
    name          text        NOT NULL DEFAULT '',
    created_at    timestamptz NOT NULL DEFAULT now(),
    last_login_at timestamptz
);

-- API tokens are stored only as HMAC-SHA256 under TOKEN_KEY.
CREATE TABLE tokens (
    id           bigserial   PRIMARY KEY,
    reader_id    bigint      NOT NULL REFERENCES readers (id) ON DELETE CASCADE,
    name         text        NOT NULL DEFAULT '',
    hmac         bytea       NOT NULL UNIQUE,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz,
    revoked_at   timestamptz
);
CREATE INDEX tokens_reader_idx ON tokens (reader_id);

CREATE TABLE bookmarks (
    reader_id  bigint      NOT NULL REFERENCES readers (id) ON DELETE CASCADE,
    site       text        NOT NULL,
    series_id  text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (reader_id, site, series_id),
    FOREIGN KEY (site, series_id) REFERENCES series (site, series_id) ON DELETE CASCADE
);
CREATE INDEX bookmarks_series_idx ON bookmarks (site, series_id);

-- A Reader's Progress on one bookmarked Series: the furthest chapter read.
CREATE TABLE progress (
    reader_id  bigint      NOT NULL,
    site       text        NOT NULL,
    series_id  text        NOT NULL,
    number     numeric     NOT NULL,
    url        text        NOT NULL DEFAULT '',
    read_at    timestamptz NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (reader_id, site, series_id),
    FOREIGN KEY (reader_id, site, series_id)
        REFERENCES bookmarks (reader_id, site, series_id) ON DELETE CASCADE
);

-- One row per Site once its Lane has run or the Owner has acted on it.
CREATE TABLE poll_lanes (
    site         text        PRIMARY KEY,
    paused_until timestamptz,
    pause_reason text        NOT NULL DEFAULT '',
    refuse_until timestamptz,
    updated_at   timestamptz NOT NULL DEFAULT now()
);

-- One row per Lane pass; the Lane prunes rows older than 14 days.
CREATE TABLE poll_passes (
    id           bigserial   PRIMARY KEY,
    site         text        NOT NULL,
    started_at   timestamptz NOT NULL,
    finished_at  timestamptz NOT NULL,
    due          integer     NOT NULL DEFAULT 0,
    checked      integer     NOT NULL DEFAULT 0,
    ok           integer     NOT NULL DEFAULT 0,
    new          integer     NOT NULL DEFAULT 0,
    not_found    integer     NOT NULL DEFAULT 0,
    no_chapter   integer     NOT NULL DEFAULT 0,
    unfetchable  integer     NOT NULL DEFAULT 0,
    errors       integer     NOT NULL DEFAULT 0,
    refused      integer     NOT NULL DEFAULT 0,
    unreachable  integer     NOT NULL DEFAULT 0,
    skip         text        NOT NULL DEFAULT '',
    behind_by_ms bigint      NOT NULL DEFAULT 0
);
CREATE INDEX poll_passes_site_started_idx ON poll_passes (site, started_at DESC);
CREATE INDEX poll_passes_started_idx ON poll_passes (started_at);

-- The failure row is the state: present while a Series' reads keep failing.
CREATE TABLE poll_failures (
    site          text        NOT NULL,
    series_id     text        NOT NULL,
    outcome       text        NOT NULL
        CHECK (outcome IN ('not_found', 'no_chapter', 'unfetchable', 'errors')),
    failing_since timestamptz NOT NULL,
    PRIMARY KEY (site, series_id),
    FOREIGN KEY (site, series_id) REFERENCES series (site, series_id) ON DELETE CASCADE
);
-- Ordered exactly as the failing worklist is (oldest first, then site and
-- id), so listing the first page of 100k failures reads only that page.
CREATE INDEX poll_failures_since_idx ON poll_failures (failing_since, site, series_id);
CREATE INDEX poll_failures_site_outcome_idx ON poll_failures (site, outcome, failing_since, series_id);

-- One row per open owner-notice episode; site is '' for sidecar-down.
CREATE TABLE owner_notices (
    kind        text        NOT NULL
        CHECK (kind IN ('stall', 'no-browser-route', 'sidecar-down', 'adapter-broken')),
    site        text        NOT NULL DEFAULT '',
    opened_at   timestamptz NOT NULL,
    notified_at timestamptz,
    PRIMARY KEY (kind, site)
);

-- Stored cover images, served to Readers even when a Site is unreachable.
CREATE TABLE covers (
    site         text        NOT NULL,
    series_id    text        NOT NULL,
    source_url   text        NOT NULL,
    content_type text        NOT NULL,
    body         bytea       NOT NULL,
    fetched_at   timestamptz NOT NULL,
    PRIMARY KEY (site, series_id),
    FOREIGN KEY (site, series_id) REFERENCES series (site, series_id) ON DELETE CASCADE
);

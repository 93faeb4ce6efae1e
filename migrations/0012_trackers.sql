-- +goose Up

-- Trackers: a Reader's count kept on a list site (AniList first), pulled
-- by user name and pushed with a sealed token
-- (docs/adr/0027-trackers-pull-by-name-push-never-lowers.md).

-- One row per Reader and tracker. token_sealed is the token sealed under a
-- key derived from TOKEN_KEY (trackers.Sealer), never the token. state:
-- ok; failing (the last pull failed: error says why, pushes go on);
-- reconnect (the token was refused or no longer opens: pushes stop until a
-- new token); off (neither pull nor push is on). The lease is which
-- process pulls this Reader now (lease_owner until lease_until), so two
-- processes never pull one Reader at once; next_pull_at is when the next
-- pull is due (a failure pushes it out: back off). unmatched holds the
-- last pull's entries no bookmark matches, at most 200. push_since is when
-- push was turned on (the database's clock, as progress.updated_at): only
-- Progress that moved since then is pushed, so connecting never floods the
-- tracker with the whole library.
CREATE TABLE tracker_accounts (
    reader_id    bigint      NOT NULL REFERENCES readers (id) ON DELETE CASCADE,
    service      text        NOT NULL CHECK (service IN ('anilist')),
    username     text        NOT NULL DEFAULT '' CHECK (length(username) <= 64),
    pull         boolean     NOT NULL DEFAULT false,
    push         boolean     NOT NULL DEFAULT false,
    token_sealed bytea       CHECK (length(token_sealed) <= 20000),
    state        text        NOT NULL DEFAULT 'off' CHECK (state IN ('ok', 'reconnect', 'failing', 'off')),
    error        text        NOT NULL DEFAULT '' CHECK (length(error) <= 300),
    failures     integer     NOT NULL DEFAULT 0,
    last_pull_at timestamptz,
    last_push_at timestamptz,
    next_pull_at timestamptz,
    next_push_at timestamptz,
    push_since   timestamptz,
    lease_owner  text,
    lease_until  timestamptz,
    unmatched    jsonb       NOT NULL DEFAULT '[]' CHECK (jsonb_array_length(unmatched) <= 200),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (reader_id, service)
);
-- The pull's due query.
CREATE INDEX tracker_accounts_pull_due_idx ON tracker_accounts (service, next_pull_at) WHERE pull;

-- The tracker's count for one media as last seen (a pull, or a push's read
-- and write), so the push knows what is already there and writes only
-- above it.
CREATE TABLE tracker_remote (
    reader_id bigint      NOT NULL,
    service   text        NOT NULL,
    media_id  text        NOT NULL CHECK (media_id <> '' AND length(media_id) <= 100),
    progress  integer     NOT NULL CHECK (progress BETWEEN 0 AND 100000),
    seen_at   timestamptz NOT NULL,
    PRIMARY KEY (reader_id, service, media_id),
    FOREIGN KEY (reader_id, service) REFERENCES tracker_accounts (reader_id, service) ON DELETE CASCADE
);

-- The push outbox, coalescing by its key: a media whose whole Progress
-- stands above the remembered remote count gets a row when the push
-- worker first sees it (since), with that whole number (n); each look that
-- finds n moved sets moved_at. The row is taken (deleted) and pushed once
-- Progress has rested a window (moved_at), or at the latest a few windows
-- after since, so every read of a binge makes one write, with the
-- Progress of the moment it is sent.
CREATE TABLE tracker_pending (
    reader_id bigint      NOT NULL,
    service   text        NOT NULL,
    media_id  text        NOT NULL,
    n         integer     NOT NULL,
    since     timestamptz NOT NULL,
    moved_at  timestamptz NOT NULL,
    PRIMARY KEY (reader_id, service, media_id),
    FOREIGN KEY (reader_id, service) REFERENCES tracker_accounts (reader_id, service) ON DELETE CASCADE
);
CREATE INDEX tracker_pending_since_idx ON tracker_pending (service, since);

-- Where a Progress came from: 'reader' (a read, an import, the Reader's
-- correction) or a tracker's pull ('anilist'). A constant default keeps
-- the ALTER instant.
ALTER TABLE progress ADD COLUMN source text NOT NULL DEFAULT 'reader'
    CHECK (source IN ('reader', 'anilist'));

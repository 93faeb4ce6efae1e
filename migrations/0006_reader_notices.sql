-- +goose Up

-- Reader notices (docs/adr/0016-reader-notices.md).

-- The highest Latest Chapter number a Series ever had. A read records a
-- Chapter Event only when it moves past this mark, so a number that goes
-- down and comes back (a Site re-orders, another group re-releases) records
-- nothing new. NULL until the first good read, which sets the baseline.
ALTER TABLE series ADD COLUMN max_number numeric;
UPDATE series SET max_number = latest_number WHERE latest_number IS NOT NULL;

-- How a bookmark's New Chapters reach the Reader: each one (each), never
-- (off), or held until at least notify_pile are unread or notify_pile_days
-- have passed since the first held one (pile). pile_days stays under the
-- 90 days Chapter Events are kept.
ALTER TABLE bookmarks
    ADD COLUMN notify_mode text NOT NULL DEFAULT 'each'
        CHECK (notify_mode IN ('each', 'off', 'pile')),
    ADD COLUMN notify_pile integer NOT NULL DEFAULT 3
        CHECK (notify_pile BETWEEN 1 AND 1000),
    ADD COLUMN notify_pile_days integer NOT NULL DEFAULT 7
        CHECK (notify_pile_days BETWEEN 1 AND 60);

-- A Chapter Event: a read moved a Series past its highest number. Written
-- in the same statement as the Latest Chapter; pruned after 90 days.
CREATE TABLE chapter_events (
    id        bigserial   PRIMARY KEY,
    site      text        NOT NULL,
    series_id text        NOT NULL,
    number    numeric     NOT NULL,
    title     text        NOT NULL DEFAULT '',
    url       text        NOT NULL DEFAULT '',
    seen_at   timestamptz NOT NULL,
    UNIQUE (site, series_id, number),
    FOREIGN KEY (site, series_id) REFERENCES series (site, series_id) ON DELETE CASCADE
);
CREATE INDEX chapter_events_series_seen_idx ON chapter_events (site, series_id, seen_at DESC);
CREATE INDEX chapter_events_seen_idx ON chapter_events (seen_at);

-- A notice a Reader is owed for one Chapter Event, at most one per
-- (reader, site, series_id, number). done_at is set when a Digest took it
-- (outcome sent) or the send found it moot (caught_up: Progress reached
-- the number; off: the bookmark was muted meanwhile).
--
-- No foreign keys: a New Chapter on a Series 1,000 Readers bookmark writes
-- 1,000 rows in the Latest Chapter statement, and per-row key checks were
-- two thirds of its time. The rows go with their bookmark through the
-- statement trigger below, and with their event when the prune deletes it
-- (store.PruneChapterEvents).
CREATE TABLE reader_notices (
    reader_id bigint      NOT NULL,
    site      text        NOT NULL,
    series_id text        NOT NULL,
    number    numeric     NOT NULL,
    event_id  bigint      NOT NULL,
    seen_at   timestamptz NOT NULL,
    done_at   timestamptz,
    outcome   text        NOT NULL DEFAULT ''
        CHECK (outcome IN ('', 'sent', 'caught_up', 'off')),
    PRIMARY KEY (reader_id, site, series_id, number)
);
CREATE INDEX reader_notices_owed_idx ON reader_notices (reader_id, seen_at) WHERE done_at IS NULL;
CREATE INDEX reader_notices_done_idx ON reader_notices (done_at) WHERE done_at IS NOT NULL;
CREATE INDEX reader_notices_event_idx ON reader_notices (event_id);

-- A removed bookmark (by the Reader, or with its Series) takes its notices.
-- +goose StatementBegin
CREATE FUNCTION reader_notices_unbookmarked() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM reader_notices n USING gone g
        WHERE n.reader_id = g.reader_id AND n.site = g.site AND n.series_id = g.series_id;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER bookmarks_drop_notices AFTER DELETE ON bookmarks
    REFERENCING OLD TABLE AS gone
    FOR EACH STATEMENT EXECUTE FUNCTION reader_notices_unbookmarked();

-- A Reader's notice settings. The feed token is never stored: it is derived
-- from feed_nonce under TOKEN_KEY, and feed_hmac (its HMAC, like the API
-- tokens) finds the Reader; rotating replaces both.
CREATE TABLE reader_notify (
    reader_id      bigint      PRIMARY KEY REFERENCES readers (id) ON DELETE CASCADE,
    digest_s       integer     NOT NULL DEFAULT 900 CHECK (digest_s BETWEEN 0 AND 86400),
    discord        boolean     NOT NULL DEFAULT false,
    ntfy_url       text        NOT NULL DEFAULT '',
    webhook_url    text        NOT NULL DEFAULT '',
    webhook_secret text        NOT NULL DEFAULT '',
    feed_nonce     bytea,
    feed_hmac      bytea       UNIQUE,
    updated_at     timestamptz NOT NULL DEFAULT now()
);

-- Each Reader outlet's health, for the settings page and the Owner.
CREATE TABLE notify_outlets (
    reader_id     bigint      NOT NULL REFERENCES readers (id) ON DELETE CASCADE,
    outlet        text        NOT NULL CHECK (outlet IN ('discord', 'ntfy', 'webhook', 'push')),
    last_ok_at    timestamptz,
    last_error    text        NOT NULL DEFAULT '',
    failing_since timestamptz,
    dropped       integer     NOT NULL DEFAULT 0,
    PRIMARY KEY (reader_id, outlet)
);

-- One Digest to one outlet: written when the Digest is made (the payload
-- fixed then), claimed with a lease, retried with backoff until 24 h after
-- created_at, then dropped. target names a push subscription's endpoint.
CREATE TABLE notice_deliveries (
    id          bigserial   PRIMARY KEY,
    reader_id   bigint      NOT NULL REFERENCES readers (id) ON DELETE CASCADE,
    outlet      text        NOT NULL CHECK (outlet IN ('discord', 'ntfy', 'webhook', 'push')),
    target      text        NOT NULL DEFAULT '',
    payload     jsonb       NOT NULL,
    first_seen  timestamptz NOT NULL,
    created_at  timestamptz NOT NULL,
    next_at     timestamptz NOT NULL,
    lease_until timestamptz,
    attempts    integer     NOT NULL DEFAULT 0,
    last_error  text        NOT NULL DEFAULT '',
    sent_at     timestamptz,
    dropped_at  timestamptz
);
CREATE INDEX notice_deliveries_due_idx ON notice_deliveries (next_at)
    WHERE sent_at IS NULL AND dropped_at IS NULL;
CREATE INDEX notice_deliveries_reader_idx ON notice_deliveries (reader_id, created_at DESC);

-- Web Push subscriptions of a Reader's browsers.
CREATE TABLE push_subscriptions (
    id         bigserial   PRIMARY KEY,
    reader_id  bigint      NOT NULL REFERENCES readers (id) ON DELETE CASCADE,
    endpoint   text        NOT NULL UNIQUE,
    p256dh     text        NOT NULL,
    auth       text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX push_subscriptions_reader_idx ON push_subscriptions (reader_id);

-- The one VAPID key pair every replica signs with, made on first use.
CREATE TABLE vapid_keys (
    id          integer     PRIMARY KEY CHECK (id = 1),
    public_key  text        NOT NULL,
    private_key text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- +goose Up

-- One MangaUpdates id (docs/adr/0021-works-link-by-ids.md, addendum "One
-- MangaUpdates id and the crosswalk"): kind mu holds MangaUpdates' API
-- number, the one form every source can be read into (backend/muid); a
-- pre-2022 id (digits up to 200591) is kind mu_legacy, never converted;
-- and the crosswalk's answers are cached.
ALTER TABLE series_ids
    DROP CONSTRAINT series_ids_kind_check,
    ADD CONSTRAINT series_ids_kind_check CHECK (kind IN ('al', 'mal', 'mu', 'mu_legacy', 'kt', 'md', 'mb'));

ALTER TABLE work_members
    DROP CONSTRAINT work_members_linked_by_check,
    ADD CONSTRAINT work_members_linked_by_check
        CHECK (linked_by IN ('id:al', 'id:mal', 'id:mu', 'id:mu_legacy', 'id:kt', 'id:md', 'id:mb', 'reader'));

-- The ids stored before kept the form they were given. A legacy id (one to
-- six digits, at most 200591) becomes mu_legacy; a 7-character URL id
-- (even all digits, zero-padded: 0rpf7qa) becomes the API number it writes
-- in base 36; 8 or more digits are the API number already. A value of no
-- form (it never linked to another form) is kept as it was: nothing is
-- lost, and it links only with the same value, as before.
UPDATE series_ids SET kind = 'mu_legacy'
WHERE kind = 'mu' AND value ~ '^[1-9][0-9]{0,5}$' AND value::int <= 200591;

UPDATE series_ids SET value = (
        SELECT sum((strpos('0123456789abcdefghijklmnopqrstuvwxyz', substr(lower(value), i, 1)) - 1)::numeric
            * power(36::numeric, 7 - i))
        FROM generate_series(1, 7) AS i)::bigint::text
WHERE kind = 'mu' AND value ~ '^[0-9a-zA-Z]{7}$' AND lower(value) COLLATE "C" >= '005yc1s'; -- 10,000,000 in base 36: no smaller API number

-- Series that now share a shared id (a Site's, the crosswalk's) link as
-- any new id links: link_by_id keeps the rules (an unlink sticks, a Work
-- holds one Series per Site, refusals are kept for the Owner). No Site is
-- asked anything.
-- +goose StatementBegin
DO $$
DECLARE
    p record;
BEGIN
    PERFORM pg_advisory_xact_lock(21, 1);
    FOR p IN SELECT kind, value FROM series_ids
        WHERE kind IN ('mu', 'mu_legacy') AND reader_id IS NULL
        GROUP BY kind, value HAVING count(DISTINCT (site, series_id)) > 1
        ORDER BY kind, value
    LOOP
        PERFORM link_by_id(p.kind, p.value);
    END LOOP;
END
$$;
-- +goose StatementEnd

-- The crosswalk's cache (backend/crosswalk): one MangaBaka source lookup
-- per (service, id), answered ids kept at least 7 days, so an id seen
-- again in that time asks nothing. ids is the answer's ids as
-- [{"kind","value"}] (empty when MangaBaka knows none), status the HTTP
-- status of the answer (200, 404) or 0 for one refused as hostile.
CREATE TABLE crosswalk_lookups (
    kind       text        NOT NULL CHECK (kind IN ('al', 'mal', 'mu', 'mu_legacy', 'kt')),
    value      text        NOT NULL CHECK (value <> '' AND length(value) <= 100),
    status     int         NOT NULL,
    ids        jsonb       NOT NULL DEFAULT '[]',
    fetched_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (kind, value)
);

-- The ids waiting for the crosswalk: a Series that gained an al, mal, mu,
-- mu_legacy or kt id (store.AddSeriesIDs queues it in the same
-- transaction); the worker takes them in order and deletes them.
CREATE TABLE crosswalk_queue (
    id         bigserial   PRIMARY KEY,
    site       text        NOT NULL,
    series_id  text        NOT NULL,
    kind       text        NOT NULL,
    value      text        NOT NULL,
    source     text        NOT NULL,
    reader_id  bigint      REFERENCES readers (id) ON DELETE CASCADE,
    queued_at  timestamptz NOT NULL DEFAULT now(),
    -- A worker that took the row (claimed it) until then; NULL: free.
    claimed_until timestamptz,
    tries      int         NOT NULL DEFAULT 0,
    FOREIGN KEY (site, series_id) REFERENCES series (site, series_id) ON DELETE CASCADE,
    UNIQUE NULLS NOT DISTINCT (site, series_id, kind, value, source, reader_id)
);

-- A Reader's own MangaUpdates ids that changed form link in that Reader's
-- library as a hand link does, which is the store's work (Go, not SQL):
-- they are queued for the crosswalk, whose worker links a queued Reader's
-- id in that Reader's library (store.ApplyCrosswalk) besides asking
-- MangaBaka about it.
INSERT INTO crosswalk_queue (site, series_id, kind, value, source, reader_id)
SELECT site, series_id, kind, value, source, reader_id FROM series_ids
WHERE kind IN ('mu', 'mu_legacy') AND reader_id IS NOT NULL
ON CONFLICT DO NOTHING;

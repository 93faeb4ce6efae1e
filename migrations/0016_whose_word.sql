-- +goose Up

-- Whose word (docs/adr/0021-works-link-by-ids.md, addendum "Whose word"):
-- every external id names its source, and every source but a Site's own
-- word (site) and the crosswalk's answer for an id a Site gave
-- (crosswalk) names the Reader whose word it is. Shared ids are exactly
-- source IN ('site', 'crosswalk') with reader_id NULL: only they link
-- Series for every Reader. A Reader's id (reader: named by hand, import:
-- a backup or export, sync: a phone's sync, tracker: a tracker's list)
-- links inside that Reader's library only, as a hand link does.
ALTER TABLE series_ids
    ADD COLUMN reader_id bigint REFERENCES readers (id) ON DELETE CASCADE,
    DROP CONSTRAINT series_ids_source_check,
    ADD CONSTRAINT series_ids_source_check
        CHECK (source IN ('site', 'crosswalk', 'reader', 'import', 'sync', 'tracker'));

-- The ids already stored by a Reader's word are made that Reader's. What
-- the database holds says who, in this order (ADR 0021, "Whose word"):
-- 1. an import: the Readers whose kept import jobs list the Series with
--    that id (each of them imported it, so each gets the row);
-- 2. otherwise the Reader whose bookmark of the Series is the latest made
--    at or before the id (naming an id needs the bookmark; an import
--    stores the ids in the bookmark's own transaction);
-- 3. otherwise the Reader who bookmarks the Series first.
-- An id whose Series no Reader bookmarks any more concerns no library and
-- is deleted.
CREATE TEMPORARY TABLE whose_ids ON COMMIT DROP AS
SELECT i.site, i.series_id, i.kind, i.value, i.source, i.created_at, j.reader_id
FROM series_ids i
JOIN LATERAL (
    SELECT DISTINCT k.reader_id FROM import_jobs k, jsonb_array_elements(k.entries) e
    WHERE i.source = 'import' AND jsonb_typeof(k.entries) = 'array'
        AND e->>'site' = i.site AND e->>'series_id' = i.series_id
        AND e->'ids' @> jsonb_build_array(jsonb_build_object('kind', i.kind, 'value', i.value))
) j ON true;

INSERT INTO whose_ids
SELECT i.site, i.series_id, i.kind, i.value, i.source, i.created_at,
    coalesce(
        (SELECT b.reader_id FROM bookmarks b
         WHERE b.site = i.site AND b.series_id = i.series_id AND b.created_at <= i.created_at
         ORDER BY b.created_at DESC, b.reader_id LIMIT 1),
        (SELECT b.reader_id FROM bookmarks b
         WHERE b.site = i.site AND b.series_id = i.series_id
         ORDER BY b.created_at, b.reader_id LIMIT 1))
FROM series_ids i
WHERE i.source NOT IN ('site', 'crosswalk')
    AND NOT EXISTS (SELECT 1 FROM whose_ids w WHERE w.site = i.site AND w.series_id = i.series_id
        AND w.kind = i.kind AND w.value = i.value);

DELETE FROM series_ids WHERE source NOT IN ('site', 'crosswalk');

-- At most one id per Series, kind, source and Reader: the first stored
-- stays (then the lowest value); the rest were one Reader's extra word.
ALTER TABLE series_ids DROP CONSTRAINT series_ids_pkey;

INSERT INTO series_ids (site, series_id, kind, value, source, created_at, reader_id)
SELECT DISTINCT ON (site, series_id, kind, source, reader_id)
    site, series_id, kind, value, source, created_at, reader_id
FROM whose_ids WHERE reader_id IS NOT NULL
ORDER BY site, series_id, kind, source, reader_id, created_at, value;

DELETE FROM series_ids i USING (
    SELECT ctid, row_number() OVER (PARTITION BY site, series_id, kind, source
        ORDER BY created_at, value) AS k
    FROM series_ids WHERE reader_id IS NULL) d
WHERE i.ctid = d.ctid AND d.k > 1;

ALTER TABLE series_ids
    ADD CONSTRAINT series_ids_whose_check
        CHECK ((source IN ('site', 'crosswalk')) = (reader_id IS NULL)),
    ADD CONSTRAINT series_ids_one_key
        UNIQUE NULLS NOT DISTINCT (site, series_id, kind, source, reader_id);
CREATE INDEX series_ids_reader_idx ON series_ids (reader_id, site, series_id) WHERE reader_id IS NOT NULL;

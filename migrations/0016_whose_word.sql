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

-- A Site's id that would put a second Series of one Site in a Work is not
-- linked (a Work holds at most one member per Site): it is kept here for
-- the Owner (store.CountWorks, the admin read model), with the Work it was
-- refused from while that Work stands. A later link of the Series to that
-- Work drops the row. Rows with kind 'member' are members this migration
-- took out of a Work that held two Series of one Site (value empty).
CREATE TABLE work_link_refusals (
    site       text        NOT NULL,
    series_id  text        NOT NULL,
    kind       text        NOT NULL,
    value      text        NOT NULL DEFAULT '',
    work_id    bigint      REFERENCES works (id) ON DELETE SET NULL,
    refused_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (site, series_id, kind, value),
    FOREIGN KEY (site, series_id) REFERENCES series (site, series_id) ON DELETE CASCADE
);
CREATE INDEX work_link_refusals_work_idx ON work_link_refusals (work_id);

-- The Works that Readers' ids built are taken apart: a member linked by an
-- id stays a shared member only when it shares a shared id with another
-- member, or when two Readers' words join it to the others. Otherwise it
-- leaves the shared Work, and the one Reader whose word joined it keeps it
-- as that Reader's hand link (ADR 0021, "Whose word"): the Work stands in
-- that Reader's library as before, and no other Reader's.
CREATE TEMPORARY TABLE whose_edges ON COMMIT DROP AS
SELECT DISTINCT a.work_id, a.site, a.series_id, coalesce(x.reader_id, y.reader_id) AS reader_id
FROM work_members a
JOIN work_members b ON b.work_id = a.work_id AND (b.site, b.series_id) <> (a.site, a.series_id)
JOIN series_ids x ON x.site = a.site AND x.series_id = a.series_id
JOIN series_ids y ON y.site = b.site AND y.series_id = b.series_id AND y.kind = x.kind AND y.value = x.value
    AND (x.reader_id IS NULL OR y.reader_id IS NULL OR x.reader_id = y.reader_id)
WHERE a.linked_by LIKE 'id:%';

CREATE TEMPORARY TABLE whose_leaving ON COMMIT DROP AS
SELECT m.work_id, m.site, m.series_id,
    (SELECT min(e.reader_id) FROM whose_edges e
     WHERE e.work_id = m.work_id AND e.site = m.site AND e.series_id = m.series_id) AS reader_id
FROM work_members m
WHERE m.linked_by LIKE 'id:%'
    AND NOT EXISTS (SELECT 1 FROM whose_edges e WHERE e.work_id = m.work_id AND e.site = m.site
        AND e.series_id = m.series_id AND e.reader_id IS NULL)
    AND (SELECT count(DISTINCT e.reader_id) FROM whose_edges e
         WHERE e.work_id = m.work_id AND e.site = m.site AND e.series_id = m.series_id) < 2;

INSERT INTO work_hand_links (reader_id, work_id, site, series_id)
SELECT reader_id, work_id, site, series_id FROM whose_leaving WHERE reader_id IS NOT NULL
ON CONFLICT DO NOTHING;

UPDATE reader_notices n SET work_id = NULL, work_number = NULL
FROM whose_leaving l
WHERE n.done_at IS NULL AND n.work_id = l.work_id AND n.site = l.site AND n.series_id = l.series_id
    AND NOT EXISTS (SELECT 1 FROM work_hand_links h WHERE h.reader_id = n.reader_id
        AND h.work_id = n.work_id AND h.site = n.site AND h.series_id = n.series_id);

DELETE FROM work_members m USING whose_leaving l
WHERE m.work_id = l.work_id AND m.site = l.site AND m.series_id = l.series_id;

-- A Work holds at most one member per Site. A Work that holds two already
-- keeps the member that joined first; the others leave it and are shown
-- to the Owner as refused.
CREATE TEMPORARY TABLE whose_extra ON COMMIT DROP AS
SELECT work_id, site, series_id FROM (
    SELECT work_id, site, series_id,
        row_number() OVER (PARTITION BY work_id, site ORDER BY created_at, series_id) AS k
    FROM work_members) r
WHERE k > 1;

INSERT INTO work_link_refusals (site, series_id, kind, work_id)
SELECT site, series_id, 'member', work_id FROM whose_extra ON CONFLICT DO NOTHING;

DELETE FROM work_members m USING whose_extra x
WHERE m.work_id = x.work_id AND m.site = x.site AND m.series_id = x.series_id;

CREATE UNIQUE INDEX work_members_one_site_idx ON work_members (work_id, site);

-- link_by_id as in migration 0013, and: only shared ids (reader_id NULL:
-- a Site's or the crosswalk's) link; a Reader's id links in that Reader's
-- library only (store/works_link_reader.go). A Work holds at most one
-- member per Site: a carrier whose Site the Work holds already is not
-- linked, and a merge that would give the Work two Series of one Site is
-- not made; either is recorded in work_link_refusals for the Owner.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION link_by_id(p_kind text, p_value text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    target bigint;
    fresh  boolean := false;
    w      bigint;
BEGIN
    IF (SELECT count(DISTINCT (site, series_id)) FROM series_ids
            WHERE kind = p_kind AND value = p_value AND reader_id IS NULL) < 2 THEN
        RETURN NULL;
    END IF;
    SELECT min(m.work_id) INTO target
        FROM series_ids i JOIN work_members m ON m.site = i.site AND m.series_id = i.series_id
        WHERE i.kind = p_kind AND i.value = p_value AND i.reader_id IS NULL;
    IF target IS NULL THEN
        SELECT min(f.work_id) INTO target
            FROM series_ids i JOIN work_former_members f ON f.site = i.site AND f.series_id = i.series_id
            WHERE i.kind = p_kind AND i.value = p_value AND i.reader_id IS NULL;
    END IF;
    IF target IS NULL THEN
        INSERT INTO works DEFAULT VALUES RETURNING id INTO target;
        fresh := true;
    END IF;
    FOR w IN SELECT DISTINCT m.work_id
        FROM series_ids i JOIN work_members m ON m.site = i.site AND m.series_id = i.series_id
        WHERE i.kind = p_kind AND i.value = p_value AND i.reader_id IS NULL AND m.work_id <> target
    LOOP
        -- A merge that would give the Work two Series of one Site is not made.
        CONTINUE WHEN EXISTS (SELECT 1 FROM work_members a JOIN work_members b
                ON b.work_id = target AND b.site = a.site
            WHERE a.work_id = w AND NOT EXISTS (SELECT 1 FROM work_unlinks u
                WHERE u.work_id = target AND u.site = a.site AND u.series_id = a.series_id));
        UPDATE work_members m SET work_id = target
            WHERE m.work_id = w AND NOT EXISTS (SELECT 1 FROM work_unlinks u
                WHERE u.work_id = target AND u.site = m.site AND u.series_id = m.series_id);
        INSERT INTO work_unlinks (work_id, site, series_id, reader_id, created_at)
            SELECT target, site, series_id, reader_id, created_at FROM work_unlinks WHERE work_id = w
            ON CONFLICT DO NOTHING;
        UPDATE work_hand_links SET work_id = target WHERE work_id = w;
        UPDATE reader_notices SET work_id = target WHERE work_id = w
            AND NOT EXISTS (SELECT 1 FROM reader_notices o WHERE o.reader_id = reader_notices.reader_id
                AND o.work_id = target AND o.work_number = reader_notices.work_number);
        DELETE FROM works WHERE id = w AND NOT EXISTS (SELECT 1 FROM work_members WHERE work_id = w);
    END LOOP;
    INSERT INTO work_members (site, series_id, work_id, linked_by)
        SELECT DISTINCT ON (i.site) i.site, i.series_id, target, 'id:' || p_kind FROM series_ids i
        WHERE i.kind = p_kind AND i.value = p_value AND i.reader_id IS NULL
            AND NOT EXISTS (SELECT 1 FROM work_members m WHERE m.site = i.site AND m.series_id = i.series_id)
            AND NOT EXISTS (SELECT 1 FROM work_members m WHERE m.work_id = target AND m.site = i.site)
            AND NOT EXISTS (SELECT 1 FROM work_unlinks u
                WHERE u.work_id = target AND u.site = i.site AND u.series_id = i.series_id)
        ORDER BY i.site, i.series_id
        ON CONFLICT DO NOTHING;
    -- Carriers left out of the Work (not unlinked from it) are refused.
    INSERT INTO work_link_refusals (site, series_id, kind, value, work_id)
        SELECT DISTINCT i.site, i.series_id, p_kind, p_value, target FROM series_ids i
        WHERE i.kind = p_kind AND i.value = p_value AND i.reader_id IS NULL
            AND NOT EXISTS (SELECT 1 FROM work_members m
                WHERE m.work_id = target AND m.site = i.site AND m.series_id = i.series_id)
            AND NOT EXISTS (SELECT 1 FROM work_unlinks u
                WHERE u.work_id = target AND u.site = i.site AND u.series_id = i.series_id)
        ON CONFLICT (site, series_id, kind, value) DO UPDATE SET work_id = excluded.work_id, refused_at = now();
    DELETE FROM work_link_refusals r WHERE r.work_id = target AND EXISTS (SELECT 1 FROM work_members m
        WHERE m.work_id = target AND m.site = r.site AND m.series_id = r.series_id);
    IF fresh AND (SELECT count(*) FROM work_members WHERE work_id = target) < 2 THEN
        DELETE FROM works WHERE id = target;
        RETURN NULL;
    END IF;
    IF dissolve_work(target) THEN
        RETURN NULL;
    END IF;
    DELETE FROM work_former_members WHERE work_id = target;
    RETURN target;
END
$$;
-- +goose StatementEnd

-- +goose Up

-- Unlinks per Reader (docs/adr/0021-works-link-by-ids.md, addendum
-- "Unlinks per Reader"). A Reader's "not this story" takes a shared member
-- out of the Work in that Reader's library only: their view, numbers and
-- notices (store/works_numbers.go, readerInWorkSQL). The row holds while
-- the member is in that Work; a merge carries it to the surviving Work
-- (link_by_id below). The shared unlink (work_unlinks: the member leaves
-- the Work for everyone, and ids never link it back) needs the Owner
-- (DELETE /api/admin/works/…) or two Readers unlinking the same member of
-- the same Work; link_by_id reads only it.
CREATE TABLE work_reader_unlinks (
    reader_id  bigint      NOT NULL REFERENCES readers (id) ON DELETE CASCADE,
    work_id    bigint      NOT NULL REFERENCES works (id) ON DELETE CASCADE,
    site       text        NOT NULL,
    series_id  text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (reader_id, work_id, site, series_id),
    FOREIGN KEY (site, series_id) REFERENCES series (site, series_id) ON DELETE CASCADE
);
-- Who else unlinked this member (two Readers make the shared unlink).
CREATE INDEX work_reader_unlinks_member_idx ON work_reader_unlinks (work_id, site, series_id);

-- The works lock every link holds (store.worksLockSQL): the rebuild
-- below is a link.
SELECT pg_advisory_xact_lock(21, 1);

-- Every unlink stored so far was one Reader's word (W5-3: any Reader of
-- the Work made it, for everyone): the unlinks that name their Reader
-- become that Reader's own. Those whose Reader is gone go with them.
INSERT INTO work_reader_unlinks (reader_id, work_id, site, series_id, created_at)
SELECT u.reader_id, u.work_id, u.site, u.series_id, u.created_at
FROM work_unlinks u
JOIN readers r ON r.id = u.reader_id
WHERE EXISTS (SELECT 1 FROM series s WHERE s.site = u.site AND s.series_id = u.series_id);

CREATE TEMPORARY TABLE unlinks_lifted ON COMMIT DROP AS
SELECT work_id, site, series_id FROM work_unlinks WHERE reader_id IS NOT NULL;

DELETE FROM work_unlinks WHERE reader_id IS NOT NULL;

-- link_by_id as in migration 0016, and: a merge carries the Readers' own
-- unlinks to the surviving Work, as it carries the shared ones.
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
        INSERT INTO work_reader_unlinks (reader_id, work_id, site, series_id, created_at)
            SELECT reader_id, target, site, series_id, created_at FROM work_reader_unlinks WHERE work_id = w
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

-- The Works those unlinks took apart are rebuilt by the link-by-id rules
-- over the shared ids (a Site's, the crosswalk's) of the Series they
-- unlinked: link_by_id finds the dissolved Work through its former
-- members and links the unlinked Series back (its shared unlinks are
-- gone), or joins it to the Work that stands. Works joined only by
-- Readers' hand links are not rebuilt: the hand links went with them.
SELECT link_by_id(k.kind, k.value) FROM (
    SELECT DISTINCT i.kind, i.value FROM series_ids i
    JOIN unlinks_lifted l ON l.site = i.site AND l.series_id = i.series_id
    WHERE i.reader_id IS NULL
    ORDER BY i.kind, i.value) k;

-- Every Work those Series are in now starts a new epoch (migration 0015):
-- the numbers its members showed while apart count as shown before, so
-- a Reader is told a number when their own Site shows it and no old
-- chapter is told again.
SELECT work_epoch(array_agg(DISTINCT m.work_id)) FROM work_members m
JOIN unlinks_lifted l ON l.site = m.site AND l.series_id = m.series_id;

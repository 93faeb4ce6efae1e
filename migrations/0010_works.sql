-- +goose Up

-- Works: one story on several Sites (docs/adr/0021-works-link-by-ids.md).

-- Title suggestions compare trigrams of the titles of Series already
-- stored; they only ever suggest, never link.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- The Series' other titles as its Site lists them (the suggestions read
-- them with the title). A constant default keeps the ALTER instant.
ALTER TABLE series ADD COLUMN alt_titles text[] NOT NULL DEFAULT '{}';

-- A Series' titles as one text, for the trigram index of suggestions.
-- IMMUTABLE holds: the text of a text[] does not depend on settings.
CREATE FUNCTION series_titles(title text, alt_titles text[]) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN title || ' / ' || array_to_string(alt_titles, ' / ');
CREATE INDEX series_titles_trgm_idx ON series USING gin (series_titles(title, alt_titles) gin_trgm_ops);

-- A Series' external ids: its id in a public catalogue (kind al, mal, mu,
-- kt, md, mb), read from the Site's own data (site), a backup's tracking
-- rows (import), named by a Reader (reader) or a tracker (tracker). Two
-- Series sharing one exact (kind, value) are one Work.
CREATE TABLE series_ids (
    site       text        NOT NULL,
    series_id  text        NOT NULL,
    kind       text        NOT NULL CHECK (kind IN ('al', 'mal', 'mu', 'kt', 'md', 'mb')),
    value      text        NOT NULL CHECK (value <> '' AND length(value) <= 100),
    source     text        NOT NULL CHECK (source IN ('site', 'import', 'reader', 'tracker')),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (site, series_id, kind, value),
    FOREIGN KEY (site, series_id) REFERENCES series (site, series_id) ON DELETE CASCADE
);
-- The link: who else carries this id.
CREATE INDEX series_ids_value_idx ON series_ids (kind, value);

-- A Work is one story; its members are its Series on different Sites.
-- It is shown drifted while a member is (work_members.drift_since).
CREATE TABLE works (
    id         bigserial   PRIMARY KEY,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- A Series belongs to at most one shared Work. linked_by says why: an
-- exact external id of that kind ('id:al'), or Readers' hand links
-- confirmed by a second Reader ('reader'). The member's chapter numbers
-- plus "offset" are the Work's numbers. drift_since: since when this
-- member's Latest stands more than the drift margin above every other
-- member that is not failing; a member drifted for over a day owes no
-- notices until an offset or the others agree.
CREATE TABLE work_members (
    site        text        NOT NULL,
    series_id   text        NOT NULL,
    work_id     bigint      NOT NULL REFERENCES works (id) ON DELETE CASCADE,
    linked_by   text        NOT NULL CHECK (linked_by IN
        ('id:al', 'id:mal', 'id:mu', 'id:kt', 'id:md', 'id:mb', 'reader')),
    "offset"    numeric     NOT NULL DEFAULT 0 CHECK (abs("offset") <= 100000),
    drift_since timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (site, series_id),
    FOREIGN KEY (site, series_id) REFERENCES series (site, series_id) ON DELETE CASCADE
);
CREATE INDEX work_members_work_idx ON work_members (work_id);

-- A Reader's hand link: this Reader holds (site, series_id) to be of the
-- Work, in their own library only. When a second Reader links the same
-- Series to the same Work, the link is confirmed: the Series becomes a
-- shared member (linked_by 'reader') and the hand links go.
CREATE TABLE work_hand_links (
    reader_id  bigint      NOT NULL REFERENCES readers (id) ON DELETE CASCADE,
    work_id    bigint      NOT NULL REFERENCES works (id) ON DELETE CASCADE,
    site       text        NOT NULL,
    series_id  text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (reader_id, site, series_id),
    FOREIGN KEY (site, series_id) REFERENCES series (site, series_id) ON DELETE CASCADE
);
CREATE INDEX work_hand_links_work_idx ON work_hand_links (work_id, site, series_id);

-- A Reader said (site, series_id) is not this Work's story: ids never link
-- it to this Work again (a merge carries the row to the surviving Work).
CREATE TABLE work_unlinks (
    work_id    bigint      NOT NULL REFERENCES works (id) ON DELETE CASCADE,
    site       text        NOT NULL,
    series_id  text        NOT NULL,
    reader_id  bigint,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (work_id, site, series_id)
);

-- Owed notices are told once per Reader, Work and number: a notice of a
-- member carries its Work and the number in the Work's terms, and the
-- unique index refuses the same (Reader, Work, number) from a second
-- member, even from a concurrent Lane.
ALTER TABLE reader_notices ADD COLUMN work_id bigint, ADD COLUMN work_number numeric;
CREATE UNIQUE INDEX reader_notices_work_idx ON reader_notices (reader_id, work_id, work_number)
    WHERE work_id IS NOT NULL;

-- link_by_id links the Series carrying one external id (kind, value): they
-- become one Work, the lowest-numbered Work among theirs, or a new one.
-- Other Works reached through the id merge into it, all but their members
-- a Reader unlinked from it; a Series unlinked from it stays out. It
-- returns the Work, or NULL when nothing links (fewer than two Series
-- carry the id). Callers hold the works link lock (store.lockWorks), so
-- two links never race to make two Works of one story.
-- +goose StatementBegin
CREATE FUNCTION link_by_id(p_kind text, p_value text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    target bigint;
    fresh  boolean := false;
    w      bigint;
BEGIN
    IF (SELECT count(*) FROM series_ids WHERE kind = p_kind AND value = p_value) < 2 THEN
        RETURN NULL;
    END IF;
    SELECT min(m.work_id) INTO target
        FROM series_ids i JOIN work_members m ON m.site = i.site AND m.series_id = i.series_id
        WHERE i.kind = p_kind AND i.value = p_value;
    IF target IS NULL THEN
        INSERT INTO works DEFAULT VALUES RETURNING id INTO target;
        fresh := true;
    END IF;
    FOR w IN SELECT DISTINCT m.work_id
        FROM series_ids i JOIN work_members m ON m.site = i.site AND m.series_id = i.series_id
        WHERE i.kind = p_kind AND i.value = p_value AND m.work_id <> target
    LOOP
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
        SELECT i.site, i.series_id, target, 'id:' || p_kind FROM series_ids i
        WHERE i.kind = p_kind AND i.value = p_value
            AND NOT EXISTS (SELECT 1 FROM work_members m WHERE m.site = i.site AND m.series_id = i.series_id)
            AND NOT EXISTS (SELECT 1 FROM work_unlinks u
                WHERE u.work_id = target AND u.site = i.site AND u.series_id = i.series_id)
        ON CONFLICT DO NOTHING;
    IF fresh AND (SELECT count(*) FROM work_members WHERE work_id = target) < 2 THEN
        DELETE FROM works WHERE id = target;
        RETURN NULL;
    END IF;
    RETURN target;
END
$$;
-- +goose StatementEnd

-- +goose Up

-- Works' remaining rules (docs/adr/0021-works-link-by-ids.md, "Hold,
-- offer and dissolution").

-- A Reader's preferred Site for a Work: a notice of a number first shown
-- by another member is held up to hold_minutes for the preferred member
-- to show it too (then the notice points at the preferred Site's chapter).
CREATE TABLE work_prefs (
    reader_id    bigint      NOT NULL REFERENCES readers (id) ON DELETE CASCADE,
    work_id      bigint      NOT NULL REFERENCES works (id) ON DELETE CASCADE,
    site         text        NOT NULL,
    hold_minutes integer     NOT NULL DEFAULT 60 CHECK (hold_minutes BETWEEN 1 AND 1440),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (reader_id, work_id)
);

-- An owed notice held for a preferred Site is not sent before held_until,
-- unless the preferred member shows the number first (held_until NULL).
ALTER TABLE reader_notices ADD COLUMN held_until timestamptz;

-- The "follow on {Site} instead" offer to a Reader whose only bookmark in
-- a Work is a member failing for over a day: made once per Reader and
-- Work, told in one notice (told_at), then declined or accepted; a row in
-- any state is never offered again.
CREATE TABLE work_offers (
    reader_id   bigint      NOT NULL REFERENCES readers (id) ON DELETE CASCADE,
    work_id     bigint      NOT NULL REFERENCES works (id) ON DELETE CASCADE,
    site        text        NOT NULL, -- the failing member the Reader bookmarks
    series_id   text        NOT NULL,
    to_site     text        NOT NULL, -- the member offered
    to_series_id text       NOT NULL,
    state       text        NOT NULL DEFAULT 'made' CHECK (state IN ('made', 'declined', 'accepted')),
    made_at     timestamptz NOT NULL,
    told_at     timestamptz,
    decided_at  timestamptz,
    PRIMARY KEY (reader_id, work_id)
);

-- A Work left with fewer than two members (shared members and Readers'
-- hand-linked Series) is dissolved: its lone member leaves it, so nothing
-- shows a one-member Work or its Latest. The works row and its unlinks
-- stay, with the former members, so ids that arrive later rebuild the
-- same Work and an unlink still holds (link_by_id below).
CREATE TABLE work_former_members (
    work_id   bigint NOT NULL REFERENCES works (id) ON DELETE CASCADE,
    site      text   NOT NULL,
    series_id text   NOT NULL,
    PRIMARY KEY (site, series_id, work_id),
    FOREIGN KEY (site, series_id) REFERENCES series (site, series_id) ON DELETE CASCADE
);
CREATE INDEX work_former_members_work_idx ON work_former_members (work_id);

-- dissolve_work dissolves Work w when it has fewer than two members: the
-- members left become former members, the hand links and preferences go,
-- and its owed notices are the Series' own again.
-- +goose StatementBegin
CREATE FUNCTION dissolve_work(w bigint) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM works WHERE id = w) THEN
        RETURN false;
    END IF;
    IF (SELECT count(*) FROM (
            SELECT site, series_id FROM work_members WHERE work_id = w
            UNION SELECT site, series_id FROM work_hand_links WHERE work_id = w) x) >= 2 THEN
        RETURN false;
    END IF;
    INSERT INTO work_former_members (work_id, site, series_id)
        SELECT work_id, site, series_id FROM work_members WHERE work_id = w ON CONFLICT DO NOTHING;
    DELETE FROM work_members WHERE work_id = w;
    DELETE FROM work_hand_links WHERE work_id = w;
    DELETE FROM work_prefs WHERE work_id = w;
    UPDATE reader_notices SET work_id = NULL, work_number = NULL WHERE work_id = w AND done_at IS NULL;
    RETURN true;
END
$$;

CREATE FUNCTION work_members_thin() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM dissolve_work(g.work_id) FROM (SELECT DISTINCT work_id FROM gone) g;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

-- Every way a member leaves (an unlink, its Series deleted, a move to
-- another Work) dissolves a Work it leaves thin.
CREATE TRIGGER work_members_thin_del AFTER DELETE ON work_members
    REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION work_members_thin();
CREATE TRIGGER work_members_thin_upd AFTER UPDATE ON work_members
    REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION work_members_thin();
-- A Work of one Reader's hand links is thin when one of them goes (its
-- Series removed).
CREATE TRIGGER work_hand_links_thin_del AFTER DELETE ON work_hand_links
    REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION work_members_thin();

-- Works already thin are dissolved now.
SELECT dissolve_work(id) FROM works;

-- link_by_id as in migration 0010, and: when no carrier of the id is a
-- member, a dissolved Work a carrier was a member of is rebuilt (so its
-- unlinks hold); a Work that ends with fewer than two members stays (or
-- is again) dissolved.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION link_by_id(p_kind text, p_value text) RETURNS bigint LANGUAGE plpgsql AS $$
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
        SELECT min(f.work_id) INTO target
            FROM series_ids i JOIN work_former_members f ON f.site = i.site AND f.series_id = i.series_id
            WHERE i.kind = p_kind AND i.value = p_value;
    END IF;
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
    IF dissolve_work(target) THEN
        RETURN NULL;
    END IF;
    DELETE FROM work_former_members WHERE work_id = target;
    RETURN target;
END
$$;
-- +goose StatementEnd

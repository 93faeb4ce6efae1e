-- +goose Up

-- A Work's epochs (docs/adr/0021-works-link-by-ids.md, addendum on epochs): each
-- member's joined_max is its Series' max_number when the Work's
-- membership last changed. A number a member showed above its joined_max
-- was shown inside the Work as it is now, so every Reader of the Work was
-- told it then; a number at or below was shown before, when the Readers
-- of the other members were not told. NULL counts as "everything in the
-- epoch": a member that joined before it had a highest number (its first
-- read counts inside the Work), and every member already linked when this
-- migration runs. That backfill keeps today's rule (told once, from the
-- first member) for the Works that exist, so no old chapter is told again.
ALTER TABLE work_members ADD COLUMN joined_max numeric;

-- +goose StatementBegin
-- work_epoch starts a new epoch for each Work in ws: every member's
-- joined_max becomes its Series' max_number now. Each member's Series is
-- a lookup by its key: as a join, the planner (with no parameter values
-- to go by) hashed the whole series table on every link.
CREATE FUNCTION work_epoch(ws bigint[]) RETURNS void LANGUAGE sql AS $$
    UPDATE work_members m SET joined_max = (SELECT s.max_number FROM series s
            WHERE s.site = m.site AND s.series_id = m.series_id)
    WHERE m.work_id = ANY (ws) AND m.joined_max IS DISTINCT FROM (SELECT s.max_number FROM series s
            WHERE s.site = m.site AND s.series_id = m.series_id);
$$;

-- work_member_start gives a member joining a Work (inserted, or moved in
-- by a merge) its Series' max_number as its joined_max, row by row, so a
-- Work made of new members only (nearly every link) needs no UPDATE.
CREATE FUNCTION work_member_start() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.joined_max := (SELECT s.max_number FROM series s
        WHERE s.site = NEW.site AND s.series_id = NEW.series_id);
    RETURN NEW;
END
$$;

-- work_members_joined starts a new epoch for the members already in a
-- Work that a statement's inserted members joined: the inserted ones have
-- theirs from work_member_start, so a Work needs one only when a member's
-- joined_max differs from its Series' highest. That look is planned on
-- each call with the Works at hand (EXECUTE): a plan PL/pgSQL kept from
-- the first link of a session, made while work_members was nearly empty,
-- scanned the whole table on every later link.
CREATE FUNCTION work_members_joined() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    ws  bigint[];
    due boolean;
BEGIN
    SELECT array_agg(DISTINCT work_id) INTO ws FROM joined;
    IF ws IS NULL THEN
        RETURN NULL;
    END IF;
    EXECUTE 'SELECT EXISTS (SELECT 1 FROM work_members m WHERE m.work_id = ANY ($1)
        AND m.joined_max IS DISTINCT FROM (SELECT s.max_number FROM series s
            WHERE s.site = m.site AND s.series_id = m.series_id))' INTO due USING ws;
    IF due THEN
        PERFORM work_epoch(ws);
    END IF;
    RETURN NULL;
END
$$;

-- work_members_moved runs after every UPDATE of work_members and acts
-- only on members whose work_id changed (a merge, a confirmed hand link
-- taking a member from another Work): a Work they left thin is
-- dissolved (as work_members_thin did for every update) and every Work
-- they joined starts a new epoch. The epoch's own UPDATE (of joined_max
-- only) runs this again, finds no member moved and stops, so it does not
-- recurse; updates of drift_since or "offset" also stop there, without
-- the dissolution check work_members_thin made for them.
CREATE FUNCTION work_members_moved() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    left_ws   bigint[];
    joined_ws bigint[];
BEGIN
    SELECT array_agg(DISTINCT o.work_id), array_agg(DISTINCT n.work_id) INTO left_ws, joined_ws
        FROM gone o JOIN moved n ON n.site = o.site AND n.series_id = o.series_id
        WHERE n.work_id <> o.work_id;
    IF joined_ws IS NULL THEN
        RETURN NULL;
    END IF;
    PERFORM dissolve_work(w) FROM unnest(left_ws) AS w;
    PERFORM work_epoch(joined_ws);
    RETURN NULL;
END
$$;
-- +goose StatementEnd

-- has_work_history says whether a Series has a Work's history besides a
-- membership: a former member of a dissolved Work (ids rebuild it), a
-- member unlinked from one (never linked back) or held by a Reader's hand
-- link. Linking by ids asks it of every Series carrying a new id
-- (store/works_link_set.go) and sends such a Series through link_by_id,
-- which keeps those rules; link_by_id and dissolve_work ask of one Work
-- (its former members, its unlinks), not this.
-- +goose StatementBegin
CREATE FUNCTION has_work_history(site text, series_id text) RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT EXISTS (SELECT 1 FROM work_former_members x
            WHERE x.site = has_work_history.site AND x.series_id = has_work_history.series_id)
        OR EXISTS (SELECT 1 FROM work_unlinks x
            WHERE x.site = has_work_history.site AND x.series_id = has_work_history.series_id)
        OR EXISTS (SELECT 1 FROM work_hand_links x
            WHERE x.site = has_work_history.site AND x.series_id = has_work_history.series_id);
$$;
-- +goose StatementEnd

CREATE TRIGGER work_member_start_ins BEFORE INSERT ON work_members
    FOR EACH ROW EXECUTE FUNCTION work_member_start();
CREATE TRIGGER work_member_start_upd BEFORE UPDATE OF work_id ON work_members
    FOR EACH ROW WHEN (OLD.work_id IS DISTINCT FROM NEW.work_id) EXECUTE FUNCTION work_member_start();
CREATE TRIGGER work_members_joined_ins AFTER INSERT ON work_members
    REFERENCING NEW TABLE AS joined FOR EACH STATEMENT EXECUTE FUNCTION work_members_joined();
DROP TRIGGER work_members_thin_upd ON work_members;
CREATE TRIGGER work_members_moved_upd AFTER UPDATE ON work_members
    REFERENCING OLD TABLE AS gone NEW TABLE AS moved FOR EACH STATEMENT EXECUTE FUNCTION work_members_moved();

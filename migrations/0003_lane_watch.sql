-- +goose Up

-- One row per Site whose Lane some process has held: who holds it, its
-- last heartbeat and the pass it has in flight (docs/adr/0008). seen_at is
-- the Lane's clock (the watchdog compares it with pass rows); beat_at is the
-- database's clock, so a takeover never depends on two hosts agreeing on
-- the time.
CREATE TABLE lane_holders (
    site            text        PRIMARY KEY,
    holder          text        NOT NULL,
    seen_at         timestamptz NOT NULL,
    beat_at         timestamptz NOT NULL DEFAULT now(),
    pass_started_at timestamptz,
    pass_due        integer     NOT NULL DEFAULT 0,
    pass_checked    integer     NOT NULL DEFAULT 0
);

-- New work wakes the Lane: a Series inserted (a bookmark, a Series created
-- by /api/progress) or made due sooner (a Forced Poll, a check stamp moved
-- back or cleared) sends the Site's name on the Lanes' wake channel, from
-- whichever write path did it. The payload is "site|" (no sending process),
-- so every process relays it to its Lane; the due cutoff still decides what
-- the woken Lane reads. NOTIFY is delivered at commit and de-duplicated per
-- transaction, and the insert trigger is per statement, so a bulk insert
-- sends one wake per Site.
-- +goose StatementBegin
CREATE FUNCTION lane_wake_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('mangabookmark_lane_wake', s.site || '|')
        FROM (SELECT DISTINCT site FROM added) s;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION lane_wake_sooner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('mangabookmark_lane_wake', NEW.site || '|');
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER series_wake_added AFTER INSERT ON series
    REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION lane_wake_added();

-- The WHEN clause is checked without calling the function, so the Lanes'
-- own stamps (which only move latest_checked_at forward and clear
-- force_poll_at) cost nothing.
CREATE TRIGGER series_wake_sooner AFTER UPDATE OF latest_checked_at, force_poll_at ON series
    FOR EACH ROW WHEN (
        (NEW.latest_checked_at IS NULL AND OLD.latest_checked_at IS NOT NULL)
        OR NEW.latest_checked_at < OLD.latest_checked_at
        OR (NEW.force_poll_at IS NOT NULL AND NEW.force_poll_at IS DISTINCT FROM OLD.force_poll_at)
    )
    EXECUTE FUNCTION lane_wake_sooner();

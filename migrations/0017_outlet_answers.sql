-- +goose Up

-- Real clients, round 3 (docs/adr/0024-notices-fit-their-clients.md,
-- "Round 3").

-- A delivery's webhook-id: 128 random bits ("msg_" and 32 hex digits),
-- made when the Digest is made and the same on every retry. The row id
-- it replaces (delivery_<n>) was unique in one database only: a receiver
-- shared by two servers, or a server whose database was made anew, took
-- a real delivery for a replay. Rows from before keep the id they were
-- sent with, so a retry after the upgrade carries the same one.
ALTER TABLE notice_deliveries ADD COLUMN webhook_id text;
UPDATE notice_deliveries SET webhook_id = 'delivery_' || id;
ALTER TABLE notice_deliveries ALTER COLUMN webhook_id SET NOT NULL;

-- An outlet its receiver refused for good (HTTP 401, 403, 404 or 410 from
-- a Reader's webhook or ntfy topic): stopped at once, its pending
-- deliveries dropped, no Digest written to it until the Reader sets its
-- URL again (which clears this). last_error keeps the reason.
ALTER TABLE notify_outlets ADD COLUMN stopped_at timestamptz;

-- +goose Up

-- One Reader cannot fill the database with imports (issue 33): a job keeps
-- the first 50 items it could not bring in, and counts the rest in
-- unsupported_dropped, so the listing shows how many without storing them
-- all. A Reader keeps the newest 20 imports; older finished ones are
-- deleted as a new one is recorded (store.CreateImport). The rows already
-- here are brought to the same bounds.
ALTER TABLE import_jobs ADD COLUMN unsupported_dropped integer NOT NULL DEFAULT 0;

UPDATE import_jobs SET
    unsupported_dropped = jsonb_array_length(unsupported) - 50,
    unsupported = (SELECT jsonb_agg(e ORDER BY i)
                   FROM jsonb_array_elements(unsupported) WITH ORDINALITY AS t(e, i)
                   WHERE i <= 50)
WHERE jsonb_array_length(unsupported) > 50;

DELETE FROM import_jobs j
WHERE state IN ('done', 'failed')
  AND id NOT IN (SELECT k.id FROM import_jobs k WHERE k.reader_id = j.reader_id ORDER BY k.id DESC LIMIT 20);

-- +goose Up

-- A Reader's imports (docs/adr/0017-imports-and-exports.md): one row per
-- import, whatever its format. entries holds every Series the file named
-- with what became of it (pending, added, already); unsupported what could
-- not be imported, with the reason. An import the hourly allowance of new
-- Series holds is 'waiting' with next_at, when the allowance will have
-- refilled; due_at is when the import service next takes the row (a lease
-- while one process applies it, so two processes never apply it at once).
CREATE TABLE import_jobs (
    id               bigserial   PRIMARY KEY,
    reader_id        bigint      NOT NULL REFERENCES readers (id) ON DELETE CASCADE,
    kind             text        NOT NULL,
    state            text        NOT NULL,
    source           text        NOT NULL DEFAULT '',
    total            integer     NOT NULL DEFAULT 0,
    added            integer     NOT NULL DEFAULT 0,
    already          integer     NOT NULL DEFAULT 0,
    progress_applied integer     NOT NULL DEFAULT 0,
    waiting          integer     NOT NULL DEFAULT 0,
    entries          jsonb       NOT NULL DEFAULT '[]',
    unsupported      jsonb       NOT NULL DEFAULT '[]',
    next_at          timestamptz,
    due_at           timestamptz,
    created_at       timestamptz NOT NULL,
    finished_at      timestamptz
);
CREATE INDEX import_jobs_reader_idx ON import_jobs (reader_id, id DESC);
CREATE INDEX import_jobs_due_idx ON import_jobs (due_at) WHERE state IN ('running', 'waiting');

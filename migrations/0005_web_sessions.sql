-- +goose Up

-- Browser sessions of the web pages (docs/adr/0009-web-pages-and-sessions.md).
-- Only the SHA-256 of the random session id is stored. A session belongs to
-- the token it was started with: revoking that token ends the session (the
-- lookup joins the token and requires it unrevoked), and deleting the token
-- or the Reader deletes it.
CREATE TABLE web_sessions (
    id_hash    bytea       PRIMARY KEY,
    token_id   bigint      NOT NULL REFERENCES tokens (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
);
CREATE INDEX web_sessions_token_idx ON web_sessions (token_id);
CREATE INDEX web_sessions_expires_idx ON web_sessions (expires_at);

-- One-time login links (`make demo` prints one): the SHA-256 of the code,
-- consumed by the first visit, for the token a session then starts with.
CREATE TABLE web_login_links (
    code_hash  bytea       PRIMARY KEY,
    token_id   bigint      NOT NULL REFERENCES tokens (id) ON DELETE CASCADE,
    expires_at timestamptz NOT NULL
);

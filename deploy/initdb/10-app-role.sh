#!/bin/sh
# Runs once, when the database volume is first created (the postgres
# image's /docker-entrypoint-initdb.d). The backend connects as
# mangabookmark_app: it owns the mangabookmark database and its public
# schema (so migrations run) but is no superuser and cannot create roles or
# databases. The admin role from POSTGRES_USER is kept for the Owner.
set -eu
pw=$(cat /run/secrets/db_app_password)
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" -v pw="$pw" <<'SQL'
CREATE ROLE mangabookmark_app LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION PASSWORD :'pw';
ALTER DATABASE mangabookmark OWNER TO mangabookmark_app;
ALTER SCHEMA public OWNER TO mangabookmark_app;
SQL

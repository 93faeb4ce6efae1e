#!/usr/bin/env bash
# Prints the admin URL of a PostgreSQL server the project can use, starting
# one if needed:
#   1. $DATABASE_URL's server when DATABASE_URL is set (printed as is);
#   2. the machine's PostgreSQL at 127.0.0.1:5432 when it answers;
#   3. a project-local cluster under .data/pg (port 55432), created with the
#      machine's initdb/pg_ctl on first use.
# Usage: scripts/db.sh [admin|app]   (app: the mangabookmark database, created if missing)
set -euo pipefail
mode=${1:-admin}
root=$(cd "$(dirname "$0")/.." && pwd)

if [ -n "${DATABASE_URL:-}" ]; then
  echo "$DATABASE_URL"; exit 0
fi

find_bin() {
  local b=$1
  if command -v "$b" >/dev/null 2>&1; then command -v "$b"; return; fi
  ls /usr/lib/postgresql/*/bin/"$b" 2>/dev/null | sort -V | tail -n1
}

answers() { # host port
  if command -v pg_isready >/dev/null 2>&1; then
    pg_isready -q -h "$1" -p "$2" >/dev/null 2>&1
  else
    (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null
  fi
}

host=127.0.0.1 port=${MB_PG_PORT:-5432} # MB_PG_PORT: tests of this script only
if ! answers $host $port; then
  # The machine's cluster may only be stopped: start it if we can.
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start >/dev/null 2>&1 || true
    for _ in $(seq 1 20); do answers $host $port && break; sleep 0.5; done
  fi
fi
if ! answers $host $port; then
  port=55432
  data="$root/.data/pg"
  initdb=$(find_bin initdb); pg_ctl=$(find_bin pg_ctl)
  if [ -z "$initdb" ] || [ -z "$pg_ctl" ]; then
    echo "scripts/db.sh: no PostgreSQL answers at 127.0.0.1:5432 and no server binaries (initdb, pg_ctl) are installed; install them with: apt-get install -y postgresql" >&2
    exit 1
  fi
  as=()
  if [ "$(id -u)" = 0 ]; then
    # initdb refuses to run as root: run the local cluster as postgres.
    id postgres >/dev/null 2>&1 || useradd --system --home "$data" postgres
    as=(runuser -u postgres --)
    mkdir -p "$data"; chown -R postgres "$root/.data"
  fi
  if [ ! -f "$data/PG_VERSION" ]; then
    mkdir -p "$data"
    "${as[@]}" "$initdb" -D "$data" -U postgres --auth=trust >/dev/null
  fi
  if ! answers $host $port; then
    "${as[@]}" "$pg_ctl" -D "$data" -l "$data/server.log" -w \
      -o "-p $port -k $data -c listen_addresses=127.0.0.1" start >/dev/null
  fi
fi

admin="postgres://postgres@$host:$port/postgres?sslmode=disable"
if [ "$mode" = app ]; then
  psql "$admin" -tAc "SELECT 1 FROM pg_database WHERE datname='mangabookmark'" | grep -q 1 \
    || psql "$admin" -qc "CREATE DATABASE mangabookmark" >/dev/null
  echo "postgres://postgres@$host:$port/mangabookmark?sslmode=disable"
else
  echo "$admin"
fi

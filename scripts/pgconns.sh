#!/usr/bin/env bash
# Samples the test server's connections while a command runs and prints
# the peak: all of them, the test suite's (databases named
# mbt_<package>_<random> by backend/store/dbtest), and each package's.
#   scripts/pgconns.sh make test
#   PGCONNS_EVERY=0.2 scripts/pgconns.sh scripts/test.sh -short
# The server is TEST_DATABASE_URL's (scripts/db.sh admin by default). The
# admin connections a test opens to create or drop its database are in the
# "all" count only; a sample every PGCONNS_EVERY seconds (default 0.5) can
# miss a peak shorter than that.
set -uo pipefail
cd "$(dirname "$0")/.."
: "${TEST_DATABASE_URL:=$(scripts/db.sh admin)}"
export TEST_DATABASE_URL
every=${PGCONNS_EVERY:-0.5}
log=$(mktemp)
(
  while :; do
    psql "$TEST_DATABASE_URL" -AtqX -F' ' -c "
      SELECT 'all', count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'
      UNION ALL
      SELECT 'suite', count(*) FROM pg_stat_activity WHERE datname ~ '^mbt_[a-z0-9]+_[0-9a-f]{16}\$'
      UNION ALL
      SELECT substring(datname from '^mbt_([a-z0-9]+)_[0-9a-f]{16}\$'), count(*)
        FROM pg_stat_activity WHERE datname ~ '^mbt_[a-z0-9]+_[0-9a-f]{16}\$' GROUP BY 1" 2>/dev/null |
      sed "s/^/$(date +%s) /" >>"$log"
    sleep "$every"
  done
) &
sampler=$!
"$@"
rc=$?
kill "$sampler" 2>/dev/null
wait "$sampler" 2>/dev/null
echo "pgconns: peak connections sampled every ${every}s ($(awk '$2=="all"' "$log" | wc -l) samples):"
awk '{ if ($3 > peak[$2]) peak[$2] = $3 } END { for (k in peak) printf "  %-16s %d\n", k, peak[k] }' "$log" |
  sort -k2,2 -rn
rm -f "$log"
exit "$rc"

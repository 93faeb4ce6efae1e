#!/usr/bin/env bash
# make test-loaded: the whole suite the way a loaded CI machine runs it.
# Two copies of `make test` (scripts/test.sh: each package once, under
# -race where scripts/race-packages says) run at once beside a CPU hog (a busy loop
# per LOADED_HOGS, default 1), so every package competes for the cores with
# another package, another Chromium and another PostgreSQL client, and the
# tests' waits and deadlines meet a machine several times slower than an
# idle one. Both copies are verdicts: the run fails when either does. Each
# copy's output goes to LOADED_LOGS (default .data/test-loaded/, with each
# copy's go test -json beside it);
# LOADED_PKGS narrows the packages (default ./...).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
: "${TEST_DATABASE_URL:=$(scripts/db.sh admin)}"
export TEST_DATABASE_URL
go=${GO:-go}
hogs=${LOADED_HOGS:-1}
logs=${LOADED_LOGS:-.data/test-loaded}
timeout=${LOADED_TIMEOUT:-30m} # per package: a loaded package runs several times longer
read -r -a pkgs <<<"${LOADED_PKGS:-./...}"
mkdir -p "$logs"

pids=()
stop() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
}
trap stop EXIT
for _ in $(seq "$hogs"); do
  (while :; do :; done) &
  pids+=($!)
done

start=$(date +%s)
for n in first second; do
  GO=$go TEST_TIMEOUT=$timeout TEST_PKGS="${pkgs[*]}" TEST_JSON="$logs/$n" \
    scripts/test.sh >"$logs/$n.log" 2>&1 &
  if [ "$n" = first ]; then first=$!; else second=$!; fi
done
wait "$first"; rc1=$?
wait "$second"; rc2=$?
stop
trap - EXIT

for n in first second; do
  echo "== $n suite ($logs/$n.log)"
  grep -E '^(--- FAIL|FAIL|panic:|ok )' "$logs/$n.log" | grep -v '^ok ' || echo "all packages ok"
done
echo "test-loaded: first exit $rc1, second exit $rc2, $(( $(date +%s) - start ))s with $hogs CPU hog(s)"
[ "$rc1" -eq 0 ] && [ "$rc2" -eq 0 ]

#!/usr/bin/env bash
# make test: every package's tests, once. The packages listed in
# scripts/race-packages run under the race detector, every other one
# without it, and no package runs twice (docs/development.md, "The test
# pass").
#
# TEST_P packages run at a time (default 2: the cores of the CI machine,
# and the PostgreSQL connection budget, docs/development.md), the longest
# first so the last minutes are not one long package alone; inside a
# package at most TEST_PARALLEL tests (default 2) run at once. Each
# package's `go test -json` goes to TEST_JSON (default .data/test/), and
# the run ends with the per-package table of scripts/testtimes.sh.
# Extra arguments go to every `go test` (e.g. -short, -run X); TEST_PKGS
# narrows the packages (e.g. TEST_PKGS="./backend/store ./tui").
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
: "${TEST_DATABASE_URL:=$(scripts/db.sh admin)}"
export TEST_DATABASE_URL
export GO=${GO:-go}
export TEST_TIMEOUT=${TEST_TIMEOUT:-20m}
export TEST_PARALLEL=${TEST_PARALLEL:-2}
export TEST_JSON=${TEST_JSON:-.data/test}
export TEST_ARGS="$*"
p=${TEST_P:-2}

# The longest packages, measured (docs/development.md): started first.
longest=(./backend/lanes ./backend/browser ./backend/web ./backend/api ./faults
  ./backend/userscript ./cmd/mangabookmark ./backend/store ./backend/readernotice
  ./backend/sitesim ./backend/imports ./cmd/mbctl/cli ./backend/trackersync)

# What the race rule looks for in a package's product code (the comment at
# the top of scripts/race-packages says it in words).
rule='^\s*go [a-zA-Z(]|errgroup\.|startstop\.Loop|tea\.NewProgram|ServeHTTP|http\.HandlerFunc|http\.NewServeMux|http\.Server\b|sync\.(Mutex|RWMutex|WaitGroup|Map)\b|atomic\.|make\(chan '

mapfile -t race < <(sed 's/#.*//' scripts/race-packages | awk 'NF { print $1 }')
# Every package with tests, as ./path, and its product files.
read -r -a want <<<"${TEST_PKGS:-./...}"
mapfile -t pkgs < <("$GO" list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.Dir}}{{end}}' "${want[@]}" | sed "s|^$PWD|.|")
if [ "${#pkgs[@]}" -eq 0 ]; then
  echo "test: go list found no package with tests" >&2
  exit 1
fi

declare -A israce=() haspkg=()
for r in "${race[@]}"; do israce[$r]=1; done
bad=0
for d in "${pkgs[@]}"; do
  haspkg[$d]=1
  [ -n "${israce[$d]:-}" ] && continue
  mapfile -t files < <("$GO" list -f '{{range .GoFiles}}{{$.Dir}}/{{.}}{{"\n"}}{{end}}' "$d")
  if [ "${#files[@]}" -gt 0 ] && [ -n "${files[0]}" ] && grep -qE "$rule" "${files[@]}"; then
    echo "test: $d runs on more than one goroutine (it matches the rule in scripts/race-packages) and is not listed there" >&2
    bad=1
  fi
done
for r in "${race[@]}"; do
  if [ -z "${TEST_PKGS:-}" ] && [ -z "${haspkg[$r]:-}" ]; then
    echo "test: scripts/race-packages lists $r, which is not a package with tests" >&2
    bad=1
  fi
done
[ "$bad" -eq 0 ] || exit 1

# The order: the longest first, then the rest as go list gives them.
declare -A queued=()
order=()
nrace=0
for d in "${longest[@]}" "${pkgs[@]}"; do
  [ -n "${haspkg[$d]:-}" ] && [ -z "${queued[$d]:-}" ] || continue
  queued[$d]=1
  if [ -n "${israce[$d]:-}" ]; then order+=(race "$d"); nrace=$((nrace + 1)); else order+=(plain "$d"); fi
done

rm -rf "$TEST_JSON"
mkdir -p "$TEST_JSON"

# run_one MODE PKG: one package's tests; prints its ok line, or the output
# of its failing tests (the whole output when no single test is to blame).
run_one() {
  local mode=$1 pkg=$2 file rc
  local -a flags=(-json -count=1 -timeout "$TEST_TIMEOUT" -parallel "$TEST_PARALLEL")
  [ "$mode" = race ] && flags+=(-race)
  file="$TEST_JSON/$(echo "${pkg#./}" | tr / _).$mode.json"
  # shellcheck disable=SC2086 # TEST_ARGS is a word list on purpose
  "$GO" test "${flags[@]}" $TEST_ARGS "$pkg" >"$file" 2>"$file.stderr"
  rc=$?
  if [ "$rc" -eq 0 ]; then
    jq -rj --arg m "$mode" 'select(.Action == "output" and .Test == null and (.Output | test("^(ok|\\?) "))) | "\(.Output | rtrimstr("\n"))  [\($m)]\n"' "$file"
    return 0
  fi
  echo "=== $pkg [$mode] failed (exit $rc); its output:"
  jq -rj '
    [.[] | select(.Action == "fail" and .Test != null) | .Test] as $failed
    | if ($failed | length) == 0 then .[] | select(.Action == "output" or .Action == "build-output") | .Output
      else .[] | select((.Action == "output" or .Action == "build-output") and (.Test == null or (.Test as $t | any($failed[]; . == $t)))) | .Output
      end' --slurp "$file"
  cat "$file.stderr"
  return 1
}
export -f run_one

start=$(date +%s)
printf '%s\n' "${order[@]}" | xargs -n 2 -P "$p" bash -c 'run_one "$@"' _
rc=$?
wall=$(($(date +%s) - start))

echo
scripts/testtimes.sh "$TEST_JSON"/*.json
echo
echo "test: ${#pkgs[@]} packages ($nrace under -race), $p at a time, in ${wall}s; go test -json in $TEST_JSON/"
if [ "$rc" -ne 0 ]; then
  echo "test: FAIL"
  exit 1
fi

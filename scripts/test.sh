#!/usr/bin/env bash
# make test: every package's tests, once. The packages listed in
# scripts/race-packages run under the race detector, every other one
# without it, and no package runs twice (docs/development.md, "The test
# pass").
#
# TEST_P packages run at a time (default 2: the cores of the CI machine,
# and the PostgreSQL connection budget, docs/development.md), the longest
# first so the last minutes are not one long package alone; inside a
# package at most TEST_PARALLEL tests (default 2) run at once, more in the
# packages whose tests mostly wait (the wide list below). The tests named
# in scripts/plain-tests run without the race detector in a job of their
# own, and their package's raced run skips them. Each
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

# The longest jobs, measured (docs/development.md, "Per-package times"):
# started first. A package's plain-tests job is "PKG@plain".
longest=(./backend/web ./backend/browser ./backend/lanes ./faults ./backend/lanes@plain
  ./backend/userscript ./backend/api ./backend/store ./cmd/mangabookmark
  ./backend/readernotice ./backend/imports ./backend/trackersync ./backend/sitesim)

# Packages whose tests mostly wait (real-time windows in a browser, a real
# process's Gap): more of them at once, the CPU they use being small. The
# figure is their -parallel; each test's PostgreSQL connections stay few
# (docs/development.md, "PostgreSQL connections").
declare -A wide=([./backend/userscript]=6)

# Jobs that wait far more than they compute (the fault suite's real
# processes idle through Gaps, the Lanes' simulated day on PostgreSQL's
# round trips, the userscript's pages through their reading windows): they
# run one after another, in longest's order, in a slot of their own beside
# the TEST_P slots, so they hold no core's slot while they wait.
# TEST_WAITING="" puts them back among the rest.
read -r -a waiting <<<"${TEST_WAITING-./faults ./backend/lanes@plain ./backend/userscript}"

# What the race rule looks for in a package's product code (the comment at
# the top of scripts/race-packages says it in words).
rule='^\s*go [a-zA-Z(]|errgroup\.|startstop\.Loop|tea\.NewProgram|ServeHTTP|http\.HandlerFunc|http\.NewServeMux|http\.Server\b|sync\.(Mutex|RWMutex|WaitGroup|Map)\b|atomic\.|make\(chan '

mapfile -t race < <(sed 's/#.*//' scripts/race-packages | awk 'NF { print $1 }')
# scripts/plain-tests: PKG -> "TestA|TestB".
declare -A plainrun=()
while read -r d name; do
  plainrun[$d]=${plainrun[$d]:+${plainrun[$d]}|}$name
done < <(sed 's/#.*//' scripts/plain-tests | awk 'NF >= 2 { print $1, $2 }')
# A -run or -skip of the caller's would fight the split's: then the
# listed tests stay in their package's raced run.
case " $* " in
  *" -run"* | *" -skip"*) plainrun=() ;;
esac
export PLAINRUN_SPEC
PLAINRUN_SPEC=$(for d in "${!plainrun[@]}"; do echo "$d ${plainrun[$d]}"; done)
WIDE_SPEC=$(for d in "${!wide[@]}"; do echo "$d ${wide[$d]}"; done)
export WIDE_SPEC
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
for d in "${!plainrun[@]}"; do
  if [ -z "${israce[$d]:-}" ]; then
    echo "test: scripts/plain-tests names $d, which scripts/race-packages does not list (its tests run plain already)" >&2
    bad=1
  fi
  # A renamed test would leave the split silently empty: each name must
  # still be a test function of its package.
  IFS='|' read -r -a names <<<"${plainrun[$d]}"
  for n in "${names[@]}"; do
    if ! grep -qE "^func $n\(t \*testing\.T\)" "$d"/*_test.go; then
      echo "test: scripts/plain-tests names $n in $d, which has no such test" >&2
      bad=1
    fi
  done
done
[ "$bad" -eq 0 ] || exit 1

# The order: the longest first, then the rest as go list gives them. A
# raced package with tests in scripts/plain-tests is two jobs: its raced
# run without them (race) and them alone, plain (split, named PKG@plain).
# A job named in TEST_WAITING goes to the waiting slot, in the same order.
declare -A queued=() inlongest=() iswaiting=()
for d in "${longest[@]}"; do inlongest[$d]=1; done
for d in "${waiting[@]}"; do iswaiting[$d]=1; done
order=()
worder=()
nrace=0
# add_job MODE PKG NAME
add_job() {
  if [ -n "${iswaiting[$3]:-}" ]; then worder+=("$1" "$2"); else order+=("$1" "$2"); fi
}
for d in "${longest[@]}" "${pkgs[@]}"; do
  [ -z "${queued[$d]:-}" ] || continue
  if [ "${d%@plain}" != "$d" ]; then
    base=${d%@plain}
    [ -n "${haspkg[$base]:-}" ] && [ -n "${plainrun[$base]:-}" ] || continue
    queued[$d]=1
    add_job split "$base" "$d"
    continue
  fi
  [ -n "${haspkg[$d]:-}" ] || continue
  queued[$d]=1
  if [ -n "${israce[$d]:-}" ]; then
    add_job race "$d" "$d"
    nrace=$((nrace + 1))
    # Its split job right after it, unless longest places it.
    if [ -n "${plainrun[$d]:-}" ] && [ -z "${inlongest[$d@plain]:-}" ]; then
      queued[$d@plain]=1
      add_job split "$d" "$d@plain"
    fi
  else
    add_job plain "$d" "$d"
  fi
done

rm -rf "$TEST_JSON"
mkdir -p "$TEST_JSON"

# run_one MODE PKG: one package's tests; prints its ok line, or the output
# of its failing tests (the whole output when no single test is to blame).
# MODE: race, plain, or split (the package's scripts/plain-tests alone,
# plain; its race run skips them).
run_one() {
  local mode=$1 pkg=$2 file rc par only
  par=$(awk -v d="$pkg" '$1 == d { print $2 }' <<<"$WIDE_SPEC")
  only=$(awk -v d="$pkg" '$1 == d { print $2 }' <<<"$PLAINRUN_SPEC")
  local -a flags=(-json -count=1 -timeout "$TEST_TIMEOUT" -parallel "${par:-$TEST_PARALLEL}")
  case $mode in
    race)
      flags+=(-race)
      [ -n "$only" ] && flags+=(-skip "^($only)\$")
      ;;
    split) flags+=(-run "^($only)\$") ;;
  esac
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
wpid=
if [ "${#worder[@]}" -gt 0 ]; then
  printf '%s\n' "${worder[@]}" | xargs -n 2 -P 1 bash -c 'run_one "$@"' _ &
  wpid=$!
fi
printf '%s\n' "${order[@]}" | xargs -n 2 -P "$p" bash -c 'run_one "$@"' _
rc=$?
if [ -n "$wpid" ] && ! wait "$wpid"; then
  rc=1
fi
wall=$(($(date +%s) - start))

echo
scripts/testtimes.sh "$TEST_JSON"/*.json
echo
echo "test: ${#pkgs[@]} packages ($nrace under -race), $p at a time and $((${#worder[@]} / 2)) waiting jobs beside them (TEST_WAITING), in ${wall}s; go test -json in $TEST_JSON/"
if [ "$rc" -ne 0 ]; then
  echo "test: FAIL"
  exit 1
fi

#!/usr/bin/env bash
# Runs every native Go fuzz target of the backend for FUZZTIME each (default
# 60s) and prints one line per target with its exec count and result. Not
# run by CI. Crashers land, as Go writes them, in the owning package's
# testdata/fuzz/<Target>/ and become seeds of its ordinary tests.
#   faults/fuzz.sh                 # every target, 60s each
#   FUZZTIME=5m faults/fuzz.sh     # longer
#   FUZZ_PARALLEL=2 faults/fuzz.sh # workers per target (default 1)
#   FUZZMINTIME=10s                # cap on minimising one new input (default 10s),
#                                  # so large HTML seeds do not eat the whole run
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
fuzztime=${FUZZTIME:-60s}
par=${FUZZ_PARALLEL:-1}
logdir=$(mktemp -d)
status=0
printf '%-40s %-26s %12s  %s\n' PACKAGE TARGET EXECS RESULT
while IFS=: read -r file _ rest; do
	pkg=./$(dirname "$file")
	target=$(sed -E 's/^func (Fuzz[A-Za-z0-9_]*).*/\1/' <<<"$rest")
	log="$logdir/$(tr '/.' '__' <<<"$pkg")_$target.log"
	go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" -fuzzminimizetime "${FUZZMINTIME:-10s}" -parallel "$par" "$pkg" >"$log" 2>&1
	rc=$?
	execs=$(grep -oE 'execs: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+')
	if [ $rc -eq 0 ]; then res=ok; else res="FAIL (see $log)"; status=1; fi
	printf '%-40s %-26s %12s  %s\n' "$pkg" "$target" "${execs:-?}" "$res"
done < <(grep -rn --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]*\(f \*testing\.F\)' backend | sort)
echo "logs: $logdir"
exit $status

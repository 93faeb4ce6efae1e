#!/usr/bin/env bash
# Turns `go test -json` output into a per-package table (Markdown), the
# slowest first: package, mode, seconds, top-level tests, result.
#   scripts/testtimes.sh FILE...   files named PKG.MODE.json, as
#                                  scripts/test.sh writes them (MODE: race,
#                                  plain, or split: a raced package's
#                                  scripts/plain-tests, shown as plain);
#                                  any other name has mode "-"
#   go test -json ./... | scripts/testtimes.sh
# The seconds are each test binary's own (the "Elapsed" of its package
# line): what the package cost, not when it ran.
set -euo pipefail
if [ $# -eq 0 ]; then set -- -; fi
for f in "$@"; do
  mode=-
  case $f in
    *.race.json) mode=race ;;
    *.plain.json | *.split.json) mode=plain ;;
  esac
  # A package's last pass/fail/skip line without a test; a package that
  # did not build has none and shows as "no result".
  jq -r --arg m "$mode" --slurp '
    group_by(.Package)[]
    | (map(select(.Test == null and (.Action == "pass" or .Action == "fail" or .Action == "skip"))) | last) as $fin
    | ([.[] | select(.Test != null and (.Test | contains("/") | not) and (.Action == "pass" or .Action == "fail" or .Action == "skip"))] | length) as $tests
    | select(.[0].Package != null)
    | [.[0].Package, $m, (if $fin then ($fin.Elapsed // 0) else 0 end), $tests, (if $fin then $fin.Action else "no result" end)]
    | @tsv' "$f"
done | sort -t$'\t' -k3,3 -rn | awk -F'\t' '
  BEGIN { print "| package | mode | s | tests | result |"; print "|---|---|--:|--:|---|" }
  { sub(/^mangabookmark\//, "", $1); printf "| %s | %s | %.1f | %d | %s |\n", $1, $2, $3, $4, $5; sum += $3; n++ }
  END { printf "| **%d packages** | | **%.0f** | | |\n", n, sum }'

#!/usr/bin/env bash
# make vulncheck: govulncheck over every package, when a Go vulnerability
# database is at hand. GOVULNDB names one (an https:// mirror or a
# file:///path copy); without it, govulncheck's public service is tried.
# Many build machines reach only the package registries: when the public
# service does not answer and GOVULNDB is unset, this says so and exits 0
# without checking (the check has not happened). A GOVULNDB that cannot be
# reached fails. govulncheck is built at the Makefile's pinned version the
# first time it is needed (make vulncheck-install).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
go=${GO:-go}
bin=${GOVULNCHECK:-$("$go" env GOPATH)/bin/govulncheck}
db=${GOVULNDB:-https://vuln.go.dev}

# reachable reports whether the database answers at all: a file:// copy
# has its index, or the https host accepts a TCP connection within 10 seconds.
reachable() {
  case "$1" in
  file://*) [ -f "${1#file://}/index/db.json" ] ;;
  http://* | https://*)
    local rest=${1#*://} host port
    rest=${rest%%/*}
    host=${rest%%:*}
    port=443
    [[ $1 == http://* ]] && port=80
    [[ $rest == *:* ]] && port=${rest##*:}
    timeout 10 bash -c "exec 3<>/dev/tcp/$host/$port" 2>/dev/null
    ;;
  *) return 1 ;;
  esac
}

if ! reachable "$db"; then
  if [ -n "${GOVULNDB:-}" ]; then
    echo "vulncheck: GOVULNDB=$db cannot be reached: give a reachable mirror or a file:// copy of the Go vulnerability database" >&2
    exit 1
  fi
  echo "vulncheck: SKIPPED, no vulnerability database: $db does not answer from this machine and GOVULNDB is unset."
  echo "vulncheck: set GOVULNDB to a mirror or a file:// copy to run it; nothing was checked."
  exit 0
fi
if [ ! -x "$bin" ]; then
  make --no-print-directory vulncheck-install || exit 1
fi
echo "vulncheck: govulncheck against $db"
exec "$bin" -db "$db" ./...

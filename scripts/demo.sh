#!/usr/bin/env bash
# make demo: a local database, the Site simulator with a seeded library, the
# backend pointed at it (with a headless Chromium sidecar when one is
# installed), a local AniList stand-in (the demo command starts it and
# sets TRACKER_ORIGINS and a demo ANILIST_* client), an Owner token, a
# one-time web login link for the Owner (.data/demo/login-link, shown on
# the dashboard), a scripted phone syncing with the Owner's sync key, and
# the dashboard in the foreground. The simulator keeps publishing chapters,
# so New Chapters keep arriving. Quitting the dashboard stops everything
# this script started.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
state=.data/demo
mkdir -p "$state"

export DATABASE_URL=${DATABASE_URL:-$(scripts/db.sh app)}
export TOKEN_KEY=${TOKEN_KEY:-demo-token-key-not-for-production-0123456789}
export LISTEN_ADDR=${LISTEN_ADDR:-127.0.0.1:8080}
export OWNER_DISCORD_ID=${OWNER_DISCORD_ID:-100000000000000001}

pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT INT TERM

# The browser sidecar: Debian's Chromium when installed, else browser Sites skip.
chrome=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "${BROWSER_WS_URL:-}" ] && [ -n "$chrome" ]; then
  rm -rf "$state/chrome"; mkdir -p "$state/chrome"
  "$chrome" --headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$state/chrome" --remote-debugging-address=127.0.0.1 \
    --remote-debugging-port=0 about:blank 2>"$state/chrome.log" &
  pids+=($!)
  for _ in $(seq 1 100); do
    ws=$(grep -o 'ws://[^ ]*' "$state/chrome.log" | head -n1 || true)
    [ -n "$ws" ] && break; sleep 0.1
  done
  if [ -n "${ws:-}" ]; then export BROWSER_WS_URL=$ws; fi
fi
if [ -z "${BROWSER_WS_URL:-}" ]; then
  echo "demo: no Chromium found (apt-get install -y chromium): the three browser Sites will show no_browser"
fi

rm -f "$state/owner-token" "$state/login-link" "$state/feed-url"
bin/mangabookmark demo --token-file "$state/owner-token" --login-link-file "$state/login-link" --feed-url-file "$state/feed-url" >"$state/backend.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 150); do
  [ -s "$state/owner-token" ] && curl -fsS "http://$LISTEN_ADDR/healthz" >/dev/null 2>&1 && break
  if ! kill -0 "${pids[-1]}" 2>/dev/null; then
    echo "demo: the backend stopped; its log:"; tail -n 30 "$state/backend.log"; exit 1
  fi
  sleep 0.2
done
if [ ! -s "$state/owner-token" ]; then
  echo "demo: the backend did not come up; see $state/backend.log"; exit 1
fi

export MBCTL_SERVER="http://$LISTEN_ADDR" MBCTL_TOKEN=$(cat "$state/owner-token")
echo "demo: backend on $MBCTL_SERVER (log: $state/backend.log)"
echo "  library (Readers):  $MBCTL_SERVER/"
echo "  status (Owner):     $MBCTL_SERVER/admin"
echo "  log in as the Owner with one click (works once; also in $state/login-link and on the dashboard, where c copies it): $MBCTL_SERVER$(cat "$state/login-link")"
echo "  the Owner's New Chapters feed (Chapter Events within a minute): $(cat "$state/feed-url" 2>/dev/null)"
echo "  notice settings:    $MBCTL_SERVER/notices"
echo "  phone sync:         a scripted phone syncs the Owner's MangaPill Series every 2 minutes and reads a chapter every other sync (devices on $MBCTL_SERVER/settings)"
echo "  Trackers card:      $MBCTL_SERVER/settings#trackers (a local AniList stand-in: type the user name 'demo'; Connect approves at once)"
echo "try in another shell:"
echo "  MBCTL_SERVER=$MBCTL_SERVER MBCTL_TOKEN=\$(cat $state/owner-token) bin/mbctl lanes"
if [ -t 0 ] && [ -t 1 ]; then
  # The dashboard shows the login link and the library's URL above every
  # screen (c copies the link), since it covers what is printed above.
  bin/mbctl dashboard --login-link-file "$state/login-link"
else
  # No terminal (CI, a pipe): show the Lanes once and keep serving until interrupted.
  bin/mbctl lanes
  wait "${pids[-1]}"
fi

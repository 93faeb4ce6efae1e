#!/usr/bin/env bash
# make bench: every benchmark the issues ask for, on this machine, then one
# report (printed and written to docs/benchmarks.md). Takes about 5 minutes on
# two cores (the 1M-Series benchmarks seed their own databases), plus about
# 10 minutes for the listing benchmarks' simulated days and about 12 for the
# release hint's (MB_LISTING_BENCH_SPAN=2h shortens them; the browser one
# times the tab through Chromium first), up to
# 10 for the trackers' (MB_TRACKER_BENCH_SPAN=2h shortens it) and about a
# minute for the Works day (MB_WORKS_DAY_SPAN=6h shortens it) and about two for the
# time line's simulated publishers.
set -euo pipefail
cd "$(dirname "$0")/.."
export MB_BENCH_LARGE=1
raw=docs/benchmarks.raw.txt
: >"$raw"
run() { echo "== go test $*" | tee -a "$raw"; go test -run '^$' "$@" 2>&1 | tee -a "$raw"; }

run ./backend/lanes -bench 'LanePoll|BareGetParse' -benchtime 3s
run ./backend/lanes -bench 'BookmarkToFirstRead|ForcedPollPlain' -benchtime 20x
run ./backend/lanes -bench 'ForcedPollBrowser' -benchtime 10x
run ./backend/lanes -bench 'PaceFidelity' -benchtime 1x
run ./backend/lanes -bench 'ListingDetection|ListingRest' -benchtime 1x -timeout 90m
run ./backend/lanes -bench 'ReleaseHint' -benchtime 1x -timeout 60m
run ./backend/store -bench 'DueQuery' -benchtime 20x
run ./backend/api -bench 'ProgressRatio' -benchtime 5x
run ./backend/api -bench 'Admin' -benchtime 300x -timeout 30m
# 300 requests a library page: with 100, the p99 is the one slowest. Its data:
# 2,000 bookmarks, 20,000 Chapter Events, reading states, Forced Polls, slow
# Series and statuses (issues 45, 46); page_state and page_on_hold filter by state.
run ./backend/web -bench 'WebLibrary2000' -benchtime 300x -timeout 30m
run ./backend/web -bench 'WebUpdates2000' -benchtime 300x -timeout 30m
run ./backend/web -bench 'WebAdmin1M' -benchtime 100x -timeout 30m
run ./backend/sites/registry -bench 'ReadPlain' -benchtime 2s
run ./backend/imports -bench 'Import(Plan|Walk)5000' -benchtime 10x
run ./backend/browser -bench 'BrowserRead' -benchtime 10s
run ./backend/store -bench 'NewChapterFanout' -benchtime 20x
run ./backend/store -bench 'StatusNotices' -benchtime 1x
run ./backend/store -bench 'WorksDay' -benchtime 1x -timeout 20m
run ./backend/store -bench 'WorkEventLargest' -benchtime 30x
run ./backend/store -bench 'LinkByIDs|SuggestionQuality' -benchtime 1x
run ./backend/crosswalk -bench 'MangaUpdatesForms' -benchtime 1x
run ./backend/store -bench 'Publishers' -benchtime 1x -timeout 20m
run ./backend/readernotice -bench 'NoticeDrain' -benchtime 1x -timeout 20m
run ./backend/readernotice -bench 'NoticeLatency' -benchtime 1x
run ./backend/trackersync -bench 'TrackerDay' -benchtime 1x -timeout 30m
run ./backend/phonesync -bench 'SyncUpload5000|SyncDecode5000' -benchtime 3x -timeout 20m
run ./backend/phonesync -bench 'PhoneReadToProgress' -benchtime 10x -timeout 20m
run ./backend/phonesync/merge -bench 'MergeV2' -benchtime 2x -timeout 30m
run ./backend/phonesync -bench 'ReadElsewhereToDevice' -benchtime 3x
run ./backend/phonesync -bench 'ReadElsewhereToV1Device' -benchtime 2x -timeout 20m
run ./backend/phonesync -bench 'V2FirstMerge5000' -benchtime 2x -timeout 20m
run ./tui -bench 'WorklistRender10k' -benchtime 2s
run ./cmd/mangabookmark -bench 'ResidentMemory' -benchtime 1x

go run ./tools/benchreport -in "$raw" -out docs/benchmarks.md

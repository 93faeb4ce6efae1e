// Package faults is the fault suite: it builds the real mangabookmark
// binary once, runs it against the Site simulator (backend/sitesim) and a
// real PostgreSQL, breaks something, and checks that service continues and
// nothing is lost. The package has no code of its own outside its tests.
//
// # Forms
//
// A plain `go test ./...` runs the short form (under two minutes on two
// cores): scenarios 2, 5, 7, 9, 10 and 11, a trimmed scenario 3 and a small
// API fuzz. `make faults` (go test -tags faults ./faults/...) or
// MB_FAULTS=long runs the long form: every scenario in full, 1, 4 and 8
// included. Under -short (make test-short) the suite skips. Without a
// reachable PostgreSQL the tests skip, and fail when CI is set, as dbtest
// does.
//
// # Scenarios
//
//  1. TestPostgresRestart (long): a private PostgreSQL cluster (initdb and
//     pg_ctl run as the postgres user, on a free port, sockets in a temp
//     dir; the shared server is never touched) is stopped under a serving
//     backend. /healthz must go 503; progress writes through the outage
//     (longer than the server's 10 s authentication cache, so cached and
//     uncached tokens both meet it) must fail with 503, never 2xx or 4xx;
//     a burst of fuzzed requests meanwhile gets no 5xx but 503. After the
//     restart /healthz is 200 again, a pass started after the restart reads
//     a Forced Poll within a minute, and every progress write that returned
//     2xx is stored exactly once.
//
//  2. TestKillMidPass: SIGKILL in the middle of a pass. The Series not yet
//     read stay unstamped (still due), a restarted process takes the Lane
//     at once (no stuck advisory lock) and reads them, retried progress
//     writes leave one row each.
//
//  3. TestHostileSites: Series that hang, stream an endless body, redirect
//     forever, announce a 1 TiB Content-Length, serve malformed HTML or
//     JSON, or challenge every request. Each must end with its outcome word
//     (the failing list, pass counts, the refusing state), the backend's
//     VmRSS stays under 150 MB, and a healthy Site polled at the same time
//     keeps its pace (reads about one Gap apart). The short form keeps three
//     of the modes.
//
//  4. TestBrowserSidecarKilled (long): Chromium started by chromiumtest is
//     killed under browser Lanes. They turn browser_down, write no failure
//     rows for the unreachable reads, and plain Lanes keep polling. The
//     15-minute decay of the browser-lost gate runs on wall time in the
//     binary; it is covered on a fake clock by backend/lanes' tests.
//
//  5. TestTwoBackendsFailover: two processes on one database; the one that
//     holds the Lanes is SIGKILLed and the other takes them (its log says
//     so and it writes pass rows) within 30 seconds.
//
//  6. TestAPIFuzz: random and mutated JSON bodies, headers, paths, huge and
//     empty bodies and bad tokens against the running binary: no 5xx but
//     503, no crash, /healthz still answers. The counts are logged. The
//     native fuzz targets (URL canonicaliser, every Site parser) run from
//     faults/fuzz.sh, which CI does not run; crashers land in the owning
//     package's testdata/fuzz.
//
//  7. TestSecurity: admin routes refuse a missing (401), Reader (403),
//     revoked (401) and foreign-key (401) token; bookmark and progress URLs
//     of other hosts, IP literals and userinfo tricks are refused with
//     400/422 and neither a canary server nor the simulator sees a request.
//     Every scenario runs the binary with LOG_LEVEL=debug and fails when any
//     log holds a secret (TOKEN_KEY, tokens, the webhook URL, the Discord
//     client secret, the database password).
//
//  8. TestSecurityBrowserSidecar (long, needs Chromium;
//     security_browser_test.go): comix read through a real sidecar whose
//     pages attack it: a download leaves no file, page timers stop with the
//     read, and a page sent to the DevTools port or a local service is never
//     read as the Site's (outcome errors, nothing stored). A page whose
//     Element.prototype.outerHTML answers 8 MiB is read as the Site's own
//     page (ok: the read runs in an isolated world); a page that allocates
//     until its renderer dies (the sidecar's page heap capped small) is
//     that Series' unfetchable, the next Series on the Lane is read, no
//     read counts unreachable and no browser Lane turns browser_down.
//
//  9. TestSecurityFlood (security_flood_test.go): one Reader floods progress
//     with made-up Series and bookmarks; the hour's allowance and the
//     bookmark cap hold, every refusal is listed, and a second Reader's new
//     bookmark is still among the first Series read.
//
//  10. TestSecurityText (security_text_test.go): titles with terminal
//     escapes or bidi overrides (U+202A to U+202E, U+2066 to U+2069, raw
//     and as entities), covers on another local service, and covers on the
//     Site's own origin that answer a page or a script labelled image/png;
//     the real mbctl's output (table and JSON) and the API hold no escape
//     and no override, the store no control character and no override
//     (the text around them kept), no cover is stored but the real image,
//     and the other service is never fetched.
//
//  11. TestHungHolderStall (stall_test.go): the Lane holder is SIGSTOPped;
//     the survivor sees its heartbeat go stale, judges the stall, ends its
//     lock session and polls the Lane; resumed, the hung process stays off.
//
//  12. TestSecurityMemory (security_memory_test.go): 120 maximal progress
//     bodies (1 MiB of empty reads each) at once, over 15 tokens and then
//     from one; each is stopped at read 501 or refused past the token's
//     requests in flight, nothing is written, and the backend's peak RSS
//     (logged) stays under 128 MiB.
//
// Scenarios 8, 9, 10 and 12 log how many hostile inputs they tried
// ("hostile inputs tried: N"), scenario 6 its request counts.
//
// # Running
//
//	make faults                              # long form, against scripts/db.sh's PostgreSQL
//	go test ./faults/                        # short form
//	MB_FAULTS=long go test -run Hostile -v ./faults/
//	faults/fuzz.sh                           # native fuzzing, 60 s per target (FUZZTIME=5m)
package faults

// Package lanes runs the Poll Lanes: one independent, self-paced goroutine
// per registry Site that keeps every Series' Latest Chapter fresh.
//
// # The pass
//
// A Lane repeats passes. Each pass checks its gates, reads what is due and
// fetches each due Series in turn through the Site's adapter and route
// (the browser route for browser Sites, plain HTTPS otherwise), then returns
// the pace to wait before the next pass: until the next Series becomes due
// or a gate window ends, never more than the default Rest, 30s after a store
// error. A Wake (Forced Poll, pause, resume) cuts the wait short.
//
//   - Due is decided by the due query's cutoff alone: never checked, checked
//     at or before now - Rest, or a Forced Poll pending. Forced first, then
//     never-checked, then the longest resting. There is no ticker.
//   - Stamp before fetch: latest_checked_at is written just before each
//     fetch, so a Series never tried (pass cut short, crash) stays due.
//   - Effective gap: min(Gap, 1h / the Site's Series count), never below 1s
//     (a loud warning, at most hourly, when the floor engages). The gap is
//     kept across passes: the first fetch of a pass waits out the gap since
//     the last fetch of the one before.
//   - A pass reads at most what fits in PassSpan (5 minutes) at the
//     effective gap; the next pass starts at once on what is left. Every pass
//     row therefore reports behind-by fresh, and a Wake between fetches ends
//     the pass so a Forced Poll is read within one gap.
//   - Behind by: how long past its due time the oldest due Series has waited
//     (its Forced Poll time, created_at when never checked, else
//     latest_checked_at + Rest); zero when nothing is due.
//   - Outcomes (docs/architecture.md, "Outcomes and what they write"): ok updates the Series (title,
//     cover URL, Latest Chapter; latest_seen_at only when the number moved;
//     counted as new when a known number moved) and deletes the failure row;
//     not_found, no_chapter, unfetchable and errors upsert it with one
//     statement that keeps failing_since and writes nothing for an unchanged
//     word; refused and unreachable write nothing. Store errors there are
//     logged and the Lane goes on.
//   - Refusal: two refused reads in one pass set poll_lanes.refuse_until to
//     now + 15m and end the pass; the rest stay unstamped and due.
//   - Browser lost: an unreachable read raises a flag shared by every
//     browser Lane of the process for 15m, then decays so the Lanes probe
//     again.
//   - Wake gate (docs/CONTEXT.md states it; WakeGateDue and WakeGateWait
//     are its numbers, LeftDue and StateInput.Urgent what opens it). State
//     is the one gate order, shared with the admin API.
//   - Every pass, skipped or not, writes exactly one poll_passes row, then
//     the Lane prunes its rows older than 14 days (at most hourly) and calls
//     the Evaluator (owner notices).
//
// # Skip values
//
// poll_passes.skip says which early return a pass took: "" when the pass
// ran (nothing due included: the Lane is idle), else one of the Skip*
// constants (skip.go). What each means for the Owner is the skip table of
// docs/architecture.md, "The life of a Poll".
//
// # Cover heals
//
// A good read whose cover URL changed, or whose cover is not stored, starts
// a background fetch (at most CoverWorkers at once) that never delays the
// Lane; WaitCovers joins them. Covers are untrusted input: http(s) only, at
// most 2 MiB, an image content type other than SVG, and the dialled address
// must not be private, loopback or link-local unless the cover is on exactly
// the scheme, host and port of the Site's SITE_ORIGINS override and that
// override names a private address (or localhost) itself.
//
// # One Lane per Site across processes
//
// Each Site's Lane runs in exactly one process: it needs the Site's
// PostgreSQL advisory lock, held on a dedicated connection outside the pool.
// Processes without it retry every LockRetry (at most 10s of wall time);
// when the holder dies its connection closes, the lock is freed and another
// process takes the Lane. The Lane checks its connection before each pass
// and each fetch, and stops (skip "lock_lost") when it is gone.
//
// Manager.Wake nudges the Lane in this process and, through PostgreSQL
// NOTIFY, in every other process, so a Forced Poll or pause recorded by one
// process is seen at once by the process running that Lane. Database
// triggers (migration 0003) send the same wake when a Series is inserted or
// made due sooner, whatever wrote it.
//
// # Heartbeat, takeover and watchdog
//
// The holder beats (lane_holders) at each pass's start and end and every
// BeatEvery after checking its lock, carrying the pass in flight; a Lane
// goroutine stuck in one step longer than a read can take gets no beat. A
// process that cannot take a Lane ends the lock session of a holder silent
// for TakeoverAfter (database clock) and takes it, judging the stall notice
// first. Every process's watchdog judges the stall notice of every Site
// each WatchEvery (Notices.Watch), so a silent Lane is seen although it
// writes nothing (docs/adr/0008-watchdog-and-wake-rules.md).
//
// # Time
//
// All Lane time comes from a Clock; lanestest.FakeClock drives simulated
// days in seconds. Lock retries and read timeouts use wall time.
package lanes

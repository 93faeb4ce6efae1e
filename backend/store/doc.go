// Package store is the only package with SQL. It wraps a pgx connection
// pool, applies the embedded migrations with goose, and offers one file of
// methods per table or concern: Series and the Lanes' due order, bookmarks,
// Readers, tokens, the web pages' sessions and login links (sessions.go),
// progress, covers, passes, failures, Lane state and owner notices.
//
//   - Reader limits (limits.go): a Reader's new Series per hour and
//     bookmarks are decided in the same transaction as the write that
//     would exceed them, so they hold across processes.
//   - Progress merge (progress_merge.go): single-read progress requests go
//     to a few merge workers that apply every read waiting in one
//     statement.
//   - Works (works_link.go): external ids are stored and link Series
//     sharing one into a Work under one advisory lock, inside the
//     transaction that stored them. Each rule of a Work as one Reader sees
//     it (its members, the Work a Series is in, New, title, Latest) is one
//     SQL fragment in works_numbers.go, which every statement needing it
//     composes; composed statements take named arguments (named.go). The
//     Lane's record of a good read is one statement (record_ok.go).
//   - Lane locks (lanelock.go): each Lane's advisory lock and the wake
//     LISTEN live on dedicated connections outside the pool; the heartbeat
//     rows tell a silent holder, whose lock session another process may end.
//
// pgx.ErrNoRows becomes ErrNotFound here, and IsUnavailable tells an
// unreachable database from a faulty request by pgx's typed errors; callers
// never see pgx errors they would have to interpret. Of the project it
// imports only backend/safetext and the embedded migrations.
package store

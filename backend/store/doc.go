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
//   - Status and reading states (status.go, reading_states.go): a read's
//     status is stored in the read's transaction and a Work's status
//     worked out under its row's lock, so a change is owed once per
//     Reader; on hold and dropped are one clause (notQuietSQL) of the
//     statements that owe notices.
//   - Lane locks (lanelock.go): each Lane's advisory lock and the wake
//     LISTEN live on dedicated connections outside the pool; the heartbeat
//     rows tell a silent holder, whose lock session another process may end.
//
// # What the database does by itself
//
// Some rules run inside PostgreSQL, so no write can skip them. Each
// function and trigger as it stands is in testdata/schema.sql, written from
// a migrated database by TestSchemaGolden (TestDocNamesSchemaRoutines
// holds this list to it):
//
//   - series_wake_added (after INSERT on series) and series_wake_sooner
//     (after a row's latest_checked_at moves earlier or force_poll_at is
//     set) run lane_wake_added and lane_wake_sooner: a NOTIFY on
//     mangabookmark_lane_wake with the Site, so a sleeping Lane wakes for a
//     new Series or a Forced Poll (lanelock.go listens).
//   - bookmarks_drop_notices (after DELETE on bookmarks) runs
//     reader_notices_unbookmarked: the deleted bookmarks' Reader notices
//     are dropped with them.
//   - series_titles(title, alt_titles) is the text the trigram index
//     series_titles_trgm_idx covers, for title suggestions.
//   - link_by_id(kind, value) links every Series sharing one shared
//     external id (a Site's or the crosswalk's: reader_id NULL; a Reader's
//     word links through hand links, works_link_reader.go) into one Work:
//     the oldest Work among them (or a former one) is kept, the others
//     merge into it with their unlinks, hand links and open notices, an
//     unlinked member stays out, and a Work left with one member is
//     dissolved. A Work holds one member per Site (work_members_one_site_idx):
//     a carrier whose Site it holds, or a merge that would hold a Site
//     twice, is refused into work_link_refusals (works_link_set.go calls
//     it under the works lock).
//   - dissolve_work(w) dissolves a Work with fewer than two members and
//     hand links: its members become former members, and its hand links,
//     preferences and the Work ids of its open notices go.
//   - work_members_thin_del and work_hand_links_thin_del (after DELETE)
//     run work_members_thin: each Work that lost a member or hand link is
//     dissolved if it is down to one.
//   - work_member_start_ins and work_member_start_upd (before INSERT, or
//     an UPDATE that changes work_id, on work_members) run
//     work_member_start: the member's joined_max is its Series' max_number,
//     the start of its epoch.
//   - work_members_joined_ins (after INSERT on work_members) runs
//     work_members_joined: when a member joins, every member of its Work
//     starts a new epoch (work_epoch(works) sets each member's joined_max
//     to its Series' max_number), so a number shown before the link is
//     told as ADR 0021's addendum says.
//   - work_members_moved_upd (after UPDATE on work_members) runs
//     work_members_moved: members moved to another Work (a merge) dissolve
//     the Work they left if it is down to one, and start an epoch in the
//     Work they joined. An UPDATE of work_members can so delete a Work.
//   - has_work_history(site, series_id) says whether a Series is a former
//     member of a Work, unlinked from one or hand-linked: its group of
//     new ids then links through link_by_id, never the set-based
//     linkFresh (works_link_set.go).
//
// pgx.ErrNoRows becomes ErrNotFound here, and IsUnavailable tells an
// unreachable database from a faulty request by pgx's typed errors; callers
// never see pgx errors they would have to interpret. Of the project it
// imports only backend/safetext and the embedded migrations.
package store

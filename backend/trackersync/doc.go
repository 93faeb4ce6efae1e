// Package trackersync puts the tracker room (backend/trackers) to work for
// the Readers: their trackers' settings (a user name, the pull and push
// switches, a token sealed at rest), the pull worker (every Reader's list
// by user name, every 15 minutes and on demand, moving Progress forward
// only, one process per Reader at a time by a lease in PostgreSQL) and the
// push worker (a durable outbox in PostgreSQL: a media whose whole
// Progress stands above the tracker's remembered count waits a minute, so
// the reads of that minute make one write, which is sent only when the
// tracker's count is lower). The workers share the tracker's pace fairly
// (Pass: one pull, then one push, the pushes one per Reader in turn) and
// act only on the Reader's own evidence (ids a Site, the crosswalk or the
// Reader gave; a push only to media the Reader's pull saw or they named).
// One Service syncs one tracker; a Set (set.go) holds every tracker the
// process syncs (AniList, MangaBaka) and is what the API, the pages and
// `serve` use; the workers run under Start/Stop. A tracker whose lists
// are private (trackers.TokenLister: MangaBaka) pulls with the Reader's
// token and takes no user name (by_token.go). Why a pull goes by name and a
// push never lowers: docs/adr/0027-trackers-pull-by-name-push-never-lowers.md.
package trackersync

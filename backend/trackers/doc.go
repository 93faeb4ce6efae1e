// Package trackers is the tracker room: what mangabookmark exchanges with
// the list sites Readers keep their reading on (AniList first; a
// MangaUpdates, MangaBaka or MyAnimeList client joins by implementing
// Service). It owns the rules and the manners, never the storage:
//
//   - Service, the four calls every tracker answers (a public list by user
//     name, one entry's remote count, a write, the token's account), and the
//     typed errors the caller acts on (ErrNoSuchUser, ErrTokenRefused);
//   - Limiter, the per-process pace of one tracker shared by every Reader,
//     which a 429's Retry-After holds back (fake-clock testable);
//   - Caller, what every tracker client shares: the Limiter, the HTTP
//     client, the counts, the bound on an answer and the request loop (a
//     429 held and asked again, at most MaxRetries times), so a client
//     writes only its own request and answer shapes;
//   - the push rules (Decide, Whole): write the whole chapter number, only
//     when the remote is lower; PushOne reads the remote entry before it
//     writes (the outbox that makes a minute of reads one push is
//     PostgreSQL's, put to work by backend/trackersync);
//   - the pull rules (PlanPull): Progress moves forward only, on bookmarks
//     that exist, and the entries no bookmark matches are listed;
//   - Sealer, the tokens sealed at rest under a key derived from TOKEN_KEY,
//     and States, the OAuth state bound to the Reader's session;
//   - Recorder, the counting hook behind
//     mangabookmark_tracker_requests_total{service,kind,result}.
//
// Why a pull goes by user name and a push never lowers: docs/adr/0027.
package trackers

// Package phonesync is mangabookmark as the Reader's SyncYomi server
// (issue 43; docs/adr/0028-phone-sync-stores-v1-verbatim.md): it keeps
// each Reader's one phone library sealed at rest, reads what an upload
// says into the Reader's bookmarks, Progress and ids (reads in), and
// marks in the library it answers the chapters the Reader read elsewhere
// (reads out). The HTTP faces are backend/api's sync routes.
//
// Exported names (for the v1 routes and for protocol v2 built on them):
//
//   - Service, New(Config): the service; Config{Store, Sites, TokenKey,
//     Now, Log, MaxBody, MaxInflated, Pace, Burst}.
//   - (*Service).Ingest(ctx, readerID, backup) (Result, error): reads in
//     of one inflated library (Result is store.SyncResult: manga,
//     matched, progress_moved, bookmarks_added, not_added);
//     (*Service).IngestMerged: the same for a v2 merge's upload, recorded
//     on the Reader's card. A v1 upload (Put) reads in only the manga
//     changed since the last reading (digests.go; ADR 0035).
//   - (*Service).ReadsOut(ctx, readerID, backup) ([]byte, error): the
//     library with the chapters the Reader read elsewhere marked read
//     (read, version one above, lastModifiedAt now; every other byte
//     kept); the same slice when nothing is to mark.
//   - (*Service).Begin(readerID) (release func(), err error): the
//     per-key gate of an upload (ErrBusy: one in flight; *PacedError:
//     over the pace, with RetryAfter); Uploading(readerID) says whether
//     an upload holds it now.
//   - ReadBody(r, gzipped, maxBody, maxInflated) ([]byte, error) and
//     ReadBodySized (with the size the body is said to be): a body
//     read and inflated within the caps (ErrTooLarge with a sentence).
//   - (*Service).Put(ctx, readerID, body, ifMatch, device)
//     (PutResult, error), (*Service).Get(ctx, readerID) (Library,
//     error), (*Service).Seal/Open: the stored library (ErrNothingStored,
//     store.ErrSyncConflict).
//   - Device{ID, Name}: what a request says of the phone
//     (DeviceFrom(http.Header)); (*Service).SeeDevice records it.
//   - NewETag(rand): an ETag as SyncYomi mints one, "uuid=<uuid4>".
//
// It sits above store, imports and trackers (for the sealing TOKEN_KEY
// already keys) and below api.
package phonesync

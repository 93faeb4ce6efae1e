// Package merge is the server side of SyncYomi protocol v2: it merges a
// phone's upload into the Reader's library item by item and answers with
// what the phone lacks, as the SyncYomi server does and TachiyomiSY's v2
// client expects (docs/sources.md (phone sync) §3; syncyomi/syncyomi
// internal/merge/merge.go and internal/backup/adapter.go at
// e00f61f2aff427f7cf3d7ac154f4a9032e4d2271 and a98f59c2aa833fc796c50ffbcd060f9bf3da37cb,
// docs/sync-protocol-v2.md at 1a192bb53dc8a6dbff76c346318b586584b34cc0).
//
// Items: a manga keyed source|url (its payload without chapters and
// categories; tracking and history ride in it), a chapter keyed by its
// manga and url, a category keyed by uid (or name), and the settings.
// The client's version decides: higher writes, equal keeps the server's
// copy, lower returns the server's copy. Absence never deletes; only a
// category uid in X-Sync-Deleted-Categories makes a tombstone. Items are
// stored sealed under TOKEN_KEY (migration 0021): docs/adr/0029.
package merge

// Package muid owns the one canonical form of a MangaUpdates id, so every
// place an id enters (a Site's page, an import, a Reader's PUT, the
// crosswalk's answer) stores the same value for one story.
//
// MangaUpdates writes one story's id in three forms
// (docs/sources.md ("Ids, MangaBaka and MangaUpdates") §1, read 2026-12-06):
//   - the URL id since May 2022, seven characters of base 36 ("rmnzb04",
//     in /series/rmnzb04/...): exactly the API's number written in base 36
//     (mihonapp/mihon pull request #3776);
//   - the API number ("60143657332"), a 64-bit integer, in every API answer
//     and in Mihon's media id;
//   - the legacy id from before May 2022 (digits, at most 200591, Neko's
//     MangaUpdatesHelper), unrelated to the other two.
//
// The canonical value of kind mu is the API number in decimal; a legacy id
// is kind mu_legacy and is never converted (nothing maps it to the others
// but MangaUpdates or the crosswalk). Parse is the one function that reads
// them.
package muid

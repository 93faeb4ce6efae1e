// Package readernotice tells Readers of New Chapters. It reads Chapter Events
// (recorded by the store in the same transaction as a Latest Chapter
// write), decides which Reader is owed which notice (no backfill, one per
// number, the bookmark's notify mode, Progress caught up), groups a Reader's
// owed notices into one Digest after their digest window, and sends it to
// the Reader's outlets (Atom feed, Discord, Web Push, ntfy, webhook). The
// HTTP faces call it; it sits above the store.
package readernotice

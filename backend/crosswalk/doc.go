// Package crosswalk fills a Series' missing tracker ids from MangaBaka's
// public cross-reference: for a Series that gains an al, mal, mu,
// mu_legacy or kt id, one source lookup (GET /v1/source/{service}/{id},
// no login) names the same story's ids in the other catalogues, and the
// ones the Series lacks are stored (store.ApplyCrosswalk): with source
// crosswalk for an id a Site gave, as the same Reader's word for a
// Reader's own id. They link Works like any other id. An answer's story
// status (and total_chapters of a completed story), fresh or from the
// cache, is MangaBaka's word on the story for every Series carrying one
// of the answer's ids as a shared id (store.RecordMangaBakaStatus): one
// more source beside the Series' own page, never written over it (ADR
// 0031's second addendum). A Series with MangaBaka's word is asked about
// again once its answer is older than CacheFor
// (store.QueueCrosswalkRefresh), so the word follows the story.
//
// The lookup never runs in a request: the store queues the id in the
// transaction that stores it and wakes the Worker (store.ListenCrosswalk),
// which asks at most PerMinute times a minute per process and keeps every
// answer at least CacheFor (in PostgreSQL), so an id seen again in that
// time asks nothing. CROSSWALK=off starts no Worker. The shape read is
// MangaBaka's published OpenAPI 3.1.0 document ("MangaBaka API" 1.0, tag
// "Source"), as docs/sources.md ("Ids, MangaBaka and MangaUpdates") §2 quotes it, read 2026-12-06.
package crosswalk

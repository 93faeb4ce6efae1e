package anilist

// The GraphQL documents sent to AniList. Their shapes follow AniList's
// API documentation (AniList/ApiV2-GraphQL-Docs, docs/guide/graphql/
// queries/media-list.md: MediaListCollection by user, and a Media's
// mediaListEntry for the authenticated user) and Mihon's AniList client
// (mihonapp/mihon, app/src/main/java/eu/kanade/tachiyomi/data/track/
// anilist/AnilistApi.kt: SaveMediaListEntry by mediaId, Viewer); read
// 2026-12-02, commits in testdata/README.md.

// listDocument reads one chunk of a user's manga list by name. No
// token: a public list needs none. Every list is read, custom lists
// included (the documentation warns that entries hidden from the status
// lists live only there). The list comes in chunks (AniList's schema:
// MediaListCollection's `chunk`, "Which chunk of list entries to load",
// from 1; `perChunk`, "The amount of entries per chunk, max 500"; and
// `hasNextChunk`, "If there is another chunk"), so a very large list is
// read whole, one request a chunk, rather than cut.
const listDocument = `query MangaList($userName: String, $chunk: Int, $perChunk: Int) {
  MediaListCollection(userName: $userName, type: MANGA, chunk: $chunk, perChunk: $perChunk) {
    hasNextChunk
    lists {
      entries {
        mediaId
        status
        progress
      }
    }
  }
}`

// entryDocument reads the token's own entry for one media: the
// documentation's "From the Media object" route, one request where a
// MediaList(userId, mediaId) read would first need a Viewer read.
const entryDocument = `query MangaEntry($mediaId: Int) {
  Media(id: $mediaId, type: MANGA) {
    id
    mediaListEntry {
      status
      progress
    }
  }
}`

// saveDocument writes the token's entry for one media, creating it when
// missing (Mihon's addLibManga shape, without its private flag, so a
// Reader's private setting is left as it is).
const saveDocument = `mutation SaveProgress($mediaId: Int, $progress: Int, $status: MediaListStatus) {
  SaveMediaListEntry(mediaId: $mediaId, progress: $progress, status: $status) {
    mediaId
    status
    progress
  }
}`

// viewerDocument names the token's account.
const viewerDocument = `query Viewer {
  Viewer {
    id
    name
  }
}`

// Package anilist is AniList as a trackers.Service: GraphQL documents
// posted over plain HTTP (no GraphQL client library: four fixed documents
// and their answers are all this needs), every request paced by one
// trackers.Limiter per process, answers read with bounds, and AniList's
// ways of saying no mapped to the room's typed errors (a 404 for a user
// name: ErrNoSuchUser; a 401, or HTTP 400 "Invalid token":
// ErrTokenRefused; a 429: wait its Retry-After and ask again). It also
// holds the authorization-code Connect flow (OAuth). The documents and
// their sources are in documents.go and testdata/README.md; the local
// stand-in the tests and the demo talk to is anilisttest.
package anilist

// Package client is the typed Go client of the whole HTTP contract
// (docs/api.md): the Reader API, the Owner's admin API and health. mbctl,
// the dashboard and end-to-end tests use it, and the web pages render its
// types. The wire types here are also the ones the server encodes
// (bookmarks, /api/me, the admin bodies), so the two cannot drift apart.
//
// Every non-2xx answer becomes an *APIError carrying the status and the
// server's one-sentence message; a server that cannot be reached at all
// becomes an error matching ErrUnreachable (errors.Is).
package client

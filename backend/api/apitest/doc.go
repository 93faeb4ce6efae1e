// Package apitest starts a real api.Server (over the admin read model and
// admintest's fake Lanes) on a fresh test database, seeded with admintest's
// world at admintest.Now, and the Authenticator that knows its two tokens.
// The tests of the faces above admin (api, web, tui, mbctl and client)
// share it; admin's own tests use admintest, which builds no JSON server.
package apitest

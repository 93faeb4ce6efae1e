// Package admintest starts a real api.Server over a fresh test database
// seeded with a known, varied set of Lanes (one in each interesting state),
// passes, failures and notices, at a fixed clock. The admin API tests, the
// mbctl golden tests and the dashboard tests share it so they all describe
// the same world.
package admintest

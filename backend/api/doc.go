// Package api serves the HTTP contract of docs/api.md: health and metrics,
// the Reader API, the Owner's admin API, covers and the userscript. It turns
// errors into statuses at the edge; the JSON error body is always one
// sentence a person can act on. client is the Go client of the
// same contract.
//
// The web pages (backend/web) are served by the same Server without api
// importing them, nor they api: MountWeb routes their paths to the handler
// cmd gives it, and both faces read the Owner's Lanes and act through the
// one backend/admin Service cmd builds (Config.Admin). The Reader
// limits are decided in the store; reader_limits.go words their refusals.
// routes.go remembers every pattern served, so a test holds them to
// docs/api.md.
package api

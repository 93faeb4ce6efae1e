// Package api serves the HTTP contract of docs/api.md: health and metrics,
// the Reader API, the Owner's admin API, covers and the userscript. It turns
// errors into statuses at the edge; the JSON error body is always one
// sentence a person can act on. backend/api/client is the Go client of the
// same contract.
package api

package api

import "net/http"

// writeBusy answers 429 before a request's body is read: Retry-After 1,
// and the connection closed, since the unread body is not drained. It
// answers a request past tokenbudget.MaxInFlight, and an import sent while
// another of the Reader's is still being read.
func writeBusy(w http.ResponseWriter, msg string) {
	w.Header().Set("Retry-After", "1")
	w.Header().Set("Connection", "close")
	writeError(w, http.StatusTooManyRequests, msg)
}

package api

import (
	"net/http"
	"sync"
)

// MaxInFlightPerToken bounds the requests one token has in the server at
// once. With the write budget's burst of 120, one token could otherwise
// hold 120 maximal bodies in memory together (issue 23 item 1); past the
// bound a request is 429 before its body is read.
const MaxInFlightPerToken = 8

// inFlight counts each token's requests in progress. A token's entry goes
// when its last request ends, so the map holds only tokens with requests
// in the server.
type inFlight struct {
	mu  sync.Mutex
	per map[int64]int
}

func newInFlight() *inFlight { return &inFlight{per: map[int64]int{}} }

// acquire takes a slot for tokenID and reports whether one was free; the
// caller calls release when it took one.
func (f *inFlight) acquire(tokenID int64) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.per[tokenID] >= MaxInFlightPerToken {
		return false
	}
	f.per[tokenID]++
	return true
}

func (f *inFlight) release(tokenID int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.per[tokenID] <= 1 {
		delete(f.per, tokenID)
		return
	}
	f.per[tokenID]--
}

// writeBusy answers 429 before a request's body is read: Retry-After 1,
// and the connection closed, since the unread body is not drained. It
// answers a request past MaxInFlightPerToken, and an import sent while
// another of the Reader's is still being read.
func writeBusy(w http.ResponseWriter, msg string) {
	w.Header().Set("Retry-After", "1")
	w.Header().Set("Connection", "close")
	writeError(w, http.StatusTooManyRequests, msg)
}

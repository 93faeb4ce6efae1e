package api

import "net/http"

// Each route takes at most the body its contract needs (issue 23 item 1):
// the server-wide MaxBodyBytes is for POST /api/progress (500 reads,
// streamed by decodeReads); the small bodies get small caps, so a maximal
// request to them costs kilobytes, not a mebibyte.
const (
	smallBodyBytes = 1 << 10  // {"auto_add_reads":true}, a bookmark's notify mode
	urlBodyBytes   = 16 << 10 // a URL or two (2048 characters each) and a few fields; a pause reason (500 characters)
)

// capBody wraps h so its request body is cut at n bytes: a declared
// Content-Length over n is 413 at once, a longer stream fails its read
// (decodeJSON then answers 413).
func capBody(n int64, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > n {
			w.Header().Set("Connection", "close")
			writeError(w, http.StatusRequestEntityTooLarge, "the request body is larger than "+byteSize(n)+", the most this path takes")
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, n)
		h(w, r)
	}
}

package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"mangabookmark/backend/imports"
	"mangabookmark/backend/jsonbody"
)

// writeJSON writes v as the JSON body with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError writes the contract's error body: one actionable sentence.
func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

// decodeJSON reads one strict JSON object into dst. It answers the client
// itself (413, 415 or 400 naming the field) and returns false on failure.
func decodeJSON(w http.ResponseWriter, r *http.Request, dst any) bool {
	if !jsonContentType(w, r) {
		return false
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		status, msg := describeDecodeError(err)
		writeError(w, status, msg)
		return false
	}
	if err := dec.Decode(&struct{}{}); err != io.EOF {
		writeError(w, http.StatusBadRequest, "the body must hold exactly one JSON object")
		return false
	}
	return true
}

// jsonContentType answers 415 and returns false unless the request's
// Content-Type is absent or JSON.
func jsonContentType(w http.ResponseWriter, r *http.Request) bool {
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(strings.ToLower(ct), "application/json") {
		writeError(w, http.StatusUnsupportedMediaType, "send the body as JSON with Content-Type: application/json")
		return false
	}
	return true
}

// describeDecodeError is the status and sentence of a body that does not
// decode: 413 past the path's body limit, else 400 with jsonbody's sentence.
func describeDecodeError(err error) (int, string) {
	var maxErr *http.MaxBytesError
	if errors.As(err, &maxErr) {
		return http.StatusRequestEntityTooLarge, "the request body is larger than " + byteSize(maxErr.Limit) + ", the most this path takes"
	}
	return http.StatusBadRequest, jsonbody.Problem(err)
}

// importStatus is the status of an import the decoder refused (its
// sentence is imports.Reason): 413 past a bound, 415 for a Content-Type no
// import reads, else 400.
func importStatus(err error) int {
	switch {
	case errors.Is(err, imports.ErrTooLarge):
		return http.StatusRequestEntityTooLarge
	case errors.Is(err, imports.ErrUnsupportedType):
		return http.StatusUnsupportedMediaType
	}
	return http.StatusBadRequest
}

// byteSize writes a body limit for a person: "1 MiB", "16 KiB".
func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
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

func describeDecodeError(err error) (int, string) {
	var maxErr *http.MaxBytesError
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &maxErr):
		return http.StatusRequestEntityTooLarge, "the request body is larger than " + byteSize(maxErr.Limit) + ", the most this path takes"
	case errors.Is(err, io.EOF):
		return http.StatusBadRequest, "the body is empty: send a JSON object"
	case errors.As(err, &syn), errors.Is(err, io.ErrUnexpectedEOF):
		return http.StatusBadRequest, "the body is not valid JSON"
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			return http.StatusBadRequest, fmt.Sprintf("the body must be a JSON object, not %s", typ.Value)
		}
		return http.StatusBadRequest, fmt.Sprintf("field %q must be %s, not %s", field, jsonKind(typ.Type.Kind().String()), typ.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return http.StatusBadRequest, fmt.Sprintf("unknown field %s in the body", strings.TrimPrefix(err.Error(), "json: unknown field "))
	}
	return http.StatusBadRequest, "the body could not be read as the expected JSON object"
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "slice", "array":
		return "an array"
	case "struct", "map":
		return "an object"
	case "bool":
		return "true or false"
	case "ptr", "interface":
		return "a value of the documented type"
	}
	return "a number"
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

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
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(strings.ToLower(ct), "application/json") {
		writeError(w, http.StatusUnsupportedMediaType, "send the body as JSON with Content-Type: application/json")
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

func describeDecodeError(err error) (int, string) {
	var maxErr *http.MaxBytesError
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &maxErr):
		return http.StatusRequestEntityTooLarge, "the request body is larger than 1 MiB"
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

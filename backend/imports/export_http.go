package imports

import (
	"errors"
	"net/http"
)

// ServeExport answers an export as a download in format ("json" or "csv"),
// for GET /api/export and the pages' /export.json and /export.csv.
func ServeExport(w http.ResponseWriter, exp Export, format string) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "private, no-store")
	h.Set("Content-Disposition", `attachment; filename="mangabookmark-export.`+format+`"`)
	if format == "csv" {
		h.Set("Content-Type", "text/csv; charset=utf-8")
		_ = WriteCSV(w, exp)
		return
	}
	h.Set("Content-Type", "application/json")
	_ = WriteJSON(w, exp)
}

// Status is the HTTP status a decode error is answered with, on the API and
// the pages alike: 413 past a bound, 415 for a type no import reads, 429
// for a Reader with too many imports unfinished, else 400.
func Status(err error) int {
	switch {
	case errors.Is(err, ErrTooMany):
		return http.StatusTooManyRequests
	case errors.Is(err, ErrTooLarge):
		return http.StatusRequestEntityTooLarge
	case errors.Is(err, ErrUnsupportedType):
		return http.StatusUnsupportedMediaType
	}
	return http.StatusBadRequest
}

package imports

import (
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

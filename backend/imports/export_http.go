package imports

import (
	"io"
	"net/http"
)

// ByteOrderMark is U+FEFF in UTF-8, the first bytes of a CSV export asked
// for with bom=1.
const ByteOrderMark = "\ufeff"

// BOMSentence says what the bom parameter takes, for a request that sent
// something else.
const BOMSentence = `bom must be 1 (a byte-order mark before the CSV, for Excel) or 0`

// WantsBOM reads the export's bom parameter: "1" asks for a UTF-8
// byte-order mark as the CSV's first bytes, which Excel needs to read the
// file as UTF-8; "" or "0" for none. ok is false for anything else.
func WantsBOM(v string) (bom, ok bool) {
	switch v {
	case "", "0":
		return false, true
	case "1":
		return true, true
	}
	return false, false
}

// ServeExport answers an export as a download in format ("json" or "csv"),
// for GET /api/export and the pages' /export.json and /export.csv. With
// bom, a CSV starts with the UTF-8 byte-order mark (a JSON never does:
// RFC 8259 forbids it).
func ServeExport(w http.ResponseWriter, exp Export, format string, bom bool) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "private, no-store")
	h.Set("Content-Disposition", `attachment; filename="mangabookmark-export.`+format+`"`)
	if format == "csv" {
		h.Set("Content-Type", "text/csv; charset=utf-8")
		if bom {
			_, _ = io.WriteString(w, ByteOrderMark)
		}
		_ = WriteCSV(w, exp)
		return
	}
	h.Set("Content-Type", "application/json")
	_ = WriteJSON(w, exp)
}

package imports

import (
	"bytes"
	"errors"
	"mime"
	"strings"
	"unicode/utf8"

	"mangabookmark/backend/sites"
)

// ErrUnsupportedType marks a body whose Content-Type no import reads
// (answered 415).
var ErrUnsupportedType = errors.New("imports: unsupported content type")

// Decode reads an import body by its Content-Type: application/json (a
// list of URLs, a MangaDex list, this server's export), text/csv, or
// application/octet-stream / application/gzip (a .tachibk backup).
func Decode(contentType string, body []byte, reg *sites.Registry) (*Parsed, error) {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		mt = strings.ToLower(strings.TrimSpace(contentType))
	}
	switch mt {
	case "application/json":
		return DecodeJSON(bytes.NewReader(body))
	case "text/csv":
		if !utf8.Valid(body) {
			return nil, errorf(ErrUnreadable, "the CSV is not UTF-8 text (is it a binary file? a .tachibk backup goes as application/octet-stream)")
		}
		return DecodeCSV(bytes.NewReader(body))
	case "application/octet-stream", "application/gzip", "application/x-gzip":
		return DecodeTachibk(bytes.NewReader(body), reg)
	}
	return nil, errorf(ErrUnsupportedType, "Content-Type %q is not one an import reads: send application/json, text/csv, or application/octet-stream (a .tachibk backup)", contentType)
}

// TypeForFile guesses the Content-Type of an uploaded file from its name
// and first bytes, for the web form (browsers label a .tachibk
// arbitrarily).
func TypeForFile(name string, head []byte) string {
	n := strings.ToLower(name)
	switch {
	case len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b, strings.HasSuffix(n, ".tachibk"), strings.HasSuffix(n, ".proto.gz"):
		return "application/octet-stream"
	case strings.HasSuffix(n, ".csv"):
		return "text/csv"
	case strings.HasSuffix(n, ".json"):
		return "application/json"
	}
	trimmed := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(trimmed) > 0 && trimmed[0] == '{' {
		return "application/json"
	}
	return "text/csv"
}

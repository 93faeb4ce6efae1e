package lanes

import (
	"bytes"
	"net/http"
)

// sniffImage names a cover's image type from its first bytes, never from
// the Site's Content-Type header: only JPEG, PNG, WebP, GIF and AVIF are
// stored (issue 23: a page that calls HTML an image/png must not have it
// served back from our origin). ok is false for anything else.
func sniffImage(body []byte) (contentType string, ok bool) {
	switch ct := http.DetectContentType(body); ct {
	case "image/jpeg", "image/png", "image/webp", "image/gif":
		return ct, true
	}
	// AVIF: an ISO BMFF "ftyp" box whose major brand is avif or avis.
	if len(body) >= 12 && bytes.Equal(body[4:8], []byte("ftyp")) &&
		(bytes.Equal(body[8:12], []byte("avif")) || bytes.Equal(body[8:12], []byte("avis"))) {
		return "image/avif", true
	}
	return "", false
}

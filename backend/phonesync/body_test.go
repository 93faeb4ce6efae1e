package phonesync_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"strings"
	"testing"

	"mangabookmark/backend/phonesync"
)

// TestReadBodySizedHintIsNeverTrusted attacks the size a phone says its
// body is (Content-Length, which ReadBodySized takes as a hint): a hint
// past the cap, above or below the real size, changes neither the bytes
// read nor the caps.
func TestReadBodySizedHintIsNeverTrusted(t *testing.T) {
	body := strings.Repeat("m", 100)
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	if _, err := zw.Write([]byte(strings.Repeat("m", 1000))); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name              string
		body              []byte
		gz                bool
		hint, max, inflat int64
		tooLarge          bool
	}{
		{"hint far past the cap", []byte(body), false, 1 << 40, 200, 200, false},
		{"hint above the size", []byte(body), false, 150, 200, 200, false},
		{"hint below the size", []byte(body), false, 10, 200, 200, false},
		{"negative hint", []byte(body), false, -5, 200, 200, false},
		{"hint under the cap, body past it", []byte(body), false, 50, 60, 60, true},
		{"hint on a gzip body past the inflated cap", zipped.Bytes(), true, 10, 1 << 20, 500, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := phonesync.ReadBodySized(bytes.NewReader(tc.body), tc.gz, tc.hint, tc.max, tc.inflat)
			if tc.tooLarge {
				if !errors.Is(err, phonesync.ErrTooLarge) {
					t.Fatalf("err = %v, want ErrTooLarge", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != body {
				t.Fatalf("read %d bytes, want the %d sent", len(got), len(body))
			}
		})
	}
}

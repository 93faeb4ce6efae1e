package web_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// A file past an import's bound is 413 with the decoder's sentence, and
// one no import reads is 400 (a page's upload is always a form); neither
// records an import.
func TestImportRefusalStatus(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	c := f.login(t, f.readerToken)
	tok := f.csrf(t, c, "/import")
	var big strings.Builder
	big.WriteString("url\n")
	for i := range 10001 {
		fmt.Fprintf(&big, "https://mangapill.test/series/%d\n", i+1)
	}
	if a := f.postFile(t, c, tok, "lib.csv", []byte(big.String())); a.code != http.StatusRequestEntityTooLarge || !strings.Contains(a.body, "more than 10000 Series") {
		t.Errorf("10001 rows: %d %.300s", a.code, a.body)
	}
	if a := f.postFile(t, c, tok, "lib.csv", []byte("title\nx\n")); a.code != http.StatusBadRequest || !strings.Contains(a.body, "url") {
		t.Errorf("no url column: %d %.300s", a.code, a.body)
	}
	if n := len(f.importsOf(t, 2)); n != 0 {
		t.Errorf("%d imports, want none", n)
	}
}

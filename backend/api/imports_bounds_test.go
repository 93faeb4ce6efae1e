package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"mangabookmark/backend/imports"
	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// Issue 33 I3: one import of 10000 lines the server cannot bring in (three
// bytes a character) made GET /api/imports answer every item of the last
// 100 imports (200 MiB). The listing now carries counts only, and one
// import's items come a page at a time.
func TestImportListingCarriesNoItems(t *testing.T) {
	t.Parallel()
	e := newImportEnv(t)
	tok := e.token("300000000000000031")
	lines := make([]string, imports.MaxItems)
	for i := range lines {
		lines[i] = fmt.Sprintf("%d %s", i, strings.Repeat("漫", 290))
	}
	body, err := json.Marshal(map[string][]string{"urls": lines})
	if err != nil {
		t.Fatal(err)
	}
	code, j, raw := e.post(tok, "application/json", body)
	if code != http.StatusAccepted {
		t.Fatalf("%d %.200s", code, raw)
	}
	if j.UnsupportedCount != imports.MaxItems || len(j.Unsupported) > store.MaxStoredProblems {
		t.Errorf("the POST answer: count %d with %d items, want %d and at most %d", j.UnsupportedCount, len(j.Unsupported), imports.MaxItems, store.MaxStoredProblems)
	}

	code, raw = e.do(tok, "GET", "/api/imports", "")
	if code != http.StatusOK {
		t.Fatalf("list: %d %.200s", code, raw)
	}
	if len(raw) > 4<<10 {
		t.Errorf("the listing of one import is %d bytes, want under 4 KiB (counts, no items)", len(raw))
	}
	var list struct{ Imports []client.Import }
	if err := json.Unmarshal(raw, &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Imports) != 1 || list.Imports[0].UnsupportedCount != imports.MaxItems || len(list.Imports[0].Unsupported) != 0 {
		t.Fatalf("listed %d imports (the first counting %d with %d items), want one counting %d and listing none",
			len(list.Imports), list.Imports[0].UnsupportedCount, len(list.Imports[0].Unsupported), imports.MaxItems)
	}

	full := e.get(tok, j.ID)
	if full.UnsupportedCount != imports.MaxItems || len(full.Unsupported) != store.MaxStoredProblems {
		t.Fatalf("GET: count %d with %d items, want %d and %d", full.UnsupportedCount, len(full.Unsupported), imports.MaxItems, store.MaxStoredProblems)
	}
	code, raw = e.do(tok, "GET", fmt.Sprintf("/api/imports/%d?offset=40&limit=20", j.ID), "")
	var page client.Import
	if code != http.StatusOK || json.Unmarshal(raw, &page) != nil {
		t.Fatalf("page: %d %.200s", code, raw)
	}
	if len(page.Unsupported) != 10 || !strings.HasPrefix(page.Unsupported[0].Item, "40 ") {
		t.Errorf("offset 40: %d items from %.10q, want the 10 kept from the 41st", len(page.Unsupported), page.Unsupported[0].Item)
	}
	for _, q := range []string{"offset=-1", "offset=x", "limit=0", "limit=51"} {
		code, raw := e.do(tok, "GET", fmt.Sprintf("/api/imports/%d?%s", j.ID, q), "")
		if code != http.StatusBadRequest || !strings.Contains(string(raw), "must be a whole number") {
			t.Errorf("?%s: %d %s, want 400 with the reason", q, code, raw)
		}
	}
}

// Issue 33 I2: import jobs were never deleted. A Reader keeps the newest
// store.MaxImportsKept; an older finished one goes as a new one is
// recorded.
func TestImportsKeptPerReader(t *testing.T) {
	t.Parallel()
	e := newImportEnv(t)
	tok := e.token("300000000000000032")
	var first, last client.Import
	for i := 0; i < store.MaxImportsKept+3; i++ {
		code, j, raw := e.post(tok, "application/json", []byte(`{"urls":["not a Series"]}`))
		if code != http.StatusAccepted {
			t.Fatalf("%d %s", code, raw)
		}
		if i == 0 {
			first = j
		}
		last = j
	}
	if n := e.count("import_jobs"); n != store.MaxImportsKept {
		t.Errorf("%d import rows, want the newest %d", n, store.MaxImportsKept)
	}
	if code, _ := e.do(tok, "GET", fmt.Sprintf("/api/imports/%d", first.ID), ""); code != http.StatusNotFound {
		t.Errorf("the oldest import: %d, want 404 (pruned)", code)
	}
	if got := e.get(tok, last.ID); got.UnsupportedCount != 1 {
		t.Errorf("the newest import: %+v", got)
	}
}

// Package golden compares what an adapter extracts from a testdata fixture
// with a reviewed golden file beside it, rendered as JSON, through the
// repository's one golden helper (internal/golden); `go test -update`
// rewrites them.
package golden

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/internal/golden"
)

// Fixture reads testdata/name.
func Fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

type chapter struct {
	Number     string `json:"number"`
	Title      string `json:"title"`
	URL        string `json:"url"`
	ReleasedAt string `json:"released_at,omitempty"`
}

type result struct {
	Outcome  sites.Outcome  `json:"outcome"`
	Title    string         `json:"title,omitempty"`
	CoverURL string         `json:"cover_url,omitempty"`
	Latest   *chapter       `json:"latest"`
	Rows     int            `json:"rows,omitempty"`
	Skipped  map[string]int `json:"skipped,omitempty"`
	// IDs are "kind:value" in the order read; AltTitles as kept.
	IDs       []string `json:"ids,omitempty"`
	AltTitles []string `json:"alt_titles,omitempty"`
}

// Check compares (outcome, facts) with testdata/name.golden.
func Check(t testing.TB, name string, out sites.Outcome, f sites.Facts) {
	t.Helper()
	r := result{Outcome: out, Title: f.Title, CoverURL: f.CoverURL, Rows: f.Rows, Skipped: f.Skipped, AltTitles: f.AltTitles}
	for _, id := range f.IDs {
		r.IDs = append(r.IDs, id.Kind+":"+id.Value)
	}
	if f.Latest != nil {
		r.Latest = &chapter{Number: f.Latest.Number, Title: f.Latest.Title, URL: f.Latest.URL}
		if !f.Latest.ReleasedAt.IsZero() {
			r.Latest.ReleasedAt = f.Latest.ReleasedAt.Format(time.RFC3339)
		}
	}
	got, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	golden.Check(t, filepath.Join("testdata", name+".golden"), got)
}

// CheckIDs fails t unless f's external ids are each normalised
// (sites.NormalizeID gives them back unchanged), one per kind, and its
// alternative titles within sites.MaxAltTitles: what every parser of a
// hostile page must hold to.
func CheckIDs(t testing.TB, f sites.Facts) {
	t.Helper()
	seen := map[string]bool{}
	for _, id := range f.IDs {
		if again, ok := sites.NormalizeID(id.Kind, id.Value); !ok || again != id || seen[id.Kind] {
			t.Fatalf("id %+v is not a normalised id of its own kind (ids %v)", id, f.IDs)
		}
		seen[id.Kind] = true
	}
	if len(f.AltTitles) > sites.MaxAltTitles {
		t.Fatalf("%d alt titles past the bound", len(f.AltTitles))
	}
}

package comix

import (
	"reflect"
	"strings"
	"testing"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/golden"
)

// TestParseBrowse: the browse page decides Comix's listing. A shell whose
// initial-data holds no items (what a Paperback source says the page is)
// is no_chapter and says the list arrives later; one whose initial-data
// holds a search answer (keiyoushi's second path) gives its lines.
func TestParseBrowse(t *testing.T) {
	t.Parallel()
	l := ParseBrowse(golden.Fixture(t, "browse_shell.html"))
	if l.Outcome != sites.NoChapter || l.Err == nil || !strings.Contains(l.Err.Error(), "holds no items") {
		t.Fatalf("shell: %+v", l)
	}
	l = ParseBrowse(golden.Fixture(t, "browse_items.html"))
	want := []sites.ListingEntry{{SeriesID: "x7k2m-the-generated-knight"}, {SeriesID: "ab3"}}
	if l.Outcome != sites.OK || l.Dropped != 1 || !reflect.DeepEqual(l.Entries, want) {
		t.Fatalf("items: %+v", l)
	}
	if l := ParseBrowse([]byte(`<html><body>no script</body></html>`)); l.Outcome != sites.NoChapter {
		t.Fatalf("no initial-data: %+v", l)
	}
}

func FuzzParseBrowse(f *testing.F) {
	f.Add(golden.Fixture(f, "browse_shell.html"))
	f.Add(golden.Fixture(f, "browse_items.html"))
	f.Fuzz(func(t *testing.T, body []byte) {
		l := ParseBrowse(body)
		if !l.Outcome.Valid() || (l.Outcome == sites.OK) != (l.Err == nil) || len(l.Entries) > sites.MaxListingEntries {
			t.Fatalf("outcome %q, error %v, %d entries", l.Outcome, l.Err, len(l.Entries))
		}
		for _, e := range l.Entries {
			if !idRe.MatchString(e.SeriesID) {
				t.Fatalf("entry id %q", e.SeriesID)
			}
		}
	})
}

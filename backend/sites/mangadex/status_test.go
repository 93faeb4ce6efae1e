package mangadex

import (
	"testing"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/golden"
)

// The manga entity's attributes.status and lastChapter become the Series'
// status and final chapter (fixtures: testdata/README.md, "Status").
func TestParseMangaStatus(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, status, final string
	}{
		{"manga.json", sites.StatusReleasing, ""},              // ongoing, lastChapter ""
		{"manga_completed.json", sites.StatusCompleted, "187"}, // completed, lastChapter "187"
		{"manga_hiatus.json", sites.StatusHiatus, ""},          // lastChapter null
		{"manga_cancelled.json", sites.StatusCancelled, ""},    // lastChapter "Epilogue": no number
		{"manga_status_hostile.json", "", ""},                  // status 7, lastChapter an object
	} {
		f, out, err := ParseManga(golden.Fixture(t, c.name), id, uploadsOrigin)
		if out != sites.OK || err != nil {
			t.Fatalf("%s: %s %v", c.name, out, err)
		}
		if f.Status != c.status || f.FinalChapter != c.final {
			t.Errorf("%s: status %q final %q, want %q %q", c.name, f.Status, f.FinalChapter, c.status, c.final)
		}
	}
}

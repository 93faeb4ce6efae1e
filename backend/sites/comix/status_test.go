package comix

import (
	"testing"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/golden"
)

// The manga detail's status word and finalChapter (0: none) become the
// Series' status and final chapter (fixtures: testdata/README.md).
func TestParsePageStatus(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, status, final string
	}{
		{"title_latest.html", sites.StatusReleasing, ""}, // the capture's "releasing", finalChapter 0
		{"title_links.html", sites.StatusReleasing, ""},
		{"title_cache.html", sites.StatusReleasing, ""}, // the older snake_case cache
		{"title.html", sites.StatusReleasing, ""},       // the {"data": …} wrapper
		{"title_finished.html", sites.StatusCompleted, "41"},
		{"title_hiatus.html", sites.StatusHiatus, ""},
		{"title_discontinued.html", sites.StatusCancelled, "38.5"},
		{"title_status_hostile.html", "", ""}, // a list for a word, a negative final chapter
	} {
		f, _, _ := ParsePage(golden.Fixture(t, c.name), base, readAt)
		if f.Status != c.status || f.FinalChapter != c.final {
			t.Errorf("%s: status %q final %q, want %q %q", c.name, f.Status, f.FinalChapter, c.status, c.final)
		}
	}
}

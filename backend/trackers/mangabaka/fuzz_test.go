package mangabaka

import (
	"encoding/json"
	"testing"

	"mangabookmark/backend/trackers"
)

// FuzzReadEntry: a library entry from outside never panics the reader,
// and an entry it keeps has a series id and a count within MangaBaka's
// bounds; one it refuses says why.
func FuzzReadEntry(f *testing.F) {
	for _, seed := range []string{
		`{"series_id":1000,"progress_chapter":17,"state":"reading"}`,
		`{"series_id":"1001","progress_chapter":"13","state":"plan_to_read"}`,
		`{"Series":{"id":2010},"progress_chapter":12.5}`,
		`{"series_id":-1,"progress_chapter":1e400}`,
		`{"series_id":{"id":1},"progress_chapter":[4],"state":["x"]}`,
		`"not an object"`, `null`, `{}`, `[]`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		e, bad := readEntry(json.RawMessage(raw))
		if bad != nil {
			if bad.Reason == "" || len(bad.MediaID) > 32 {
				t.Fatalf("refused %+v", *bad)
			}
			return
		}
		if !mediaOK(e.MediaID) || e.Progress < 0 || e.Progress > MaxChapter || e.Progress > trackers.MaxProgress {
			t.Fatalf("kept %+v from %q", e, raw)
		}
	})
}

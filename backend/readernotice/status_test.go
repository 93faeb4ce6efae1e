package readernotice_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/readernotice"
	"mangabookmark/backend/store"
)

// readStatus records a good read carrying a status at the clock's now.
func (w *world) readStatus(site, id, number, status, final string) {
	w.t.Helper()
	_, err := w.st.RecordOK(w.ctx, site, id, store.ReadFacts{Title: "Series " + id, Number: number,
		ChTitle: "Ch " + number, ChURL: "https://" + site + ".example/" + id + "/" + number,
		Status: status, FinalChapter: final}, w.clk.Now())
	if err != nil {
		w.t.Fatal(err)
	}
}

// A status change reaches the Reader's outlets once, in a Digest of its
// own when no chapter is owed: one line per change; later Digests do not
// repeat it, and a Reader who put the story on hold hears nothing.
func TestDigestTellsStatusChangeOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h, quiet := newHook(t), newHook(t)
	r := w.reader("1", h, 0)
	q := w.reader("2", quiet, 0)
	w.bookmark(r, "mangadex", "a")
	w.bookmark(q, "mangadex", "a")
	if err := w.st.SetBookmarkState(w.ctx, q, "mangadex", "a", store.StateOnHold, w.clk.Now()); err != nil {
		t.Fatal(err)
	}
	w.readStatus("mangadex", "a", "10", "releasing", "")
	w.run()
	if got := h.received(); len(got) != 0 {
		t.Fatalf("the first status sent %d Digests, want none (the baseline)", len(got))
	}
	w.clk.Add(time.Minute)
	w.readStatus("mangadex", "a", "10", "completed", "10")
	w.run()
	got := h.received()
	if len(got) != 1 {
		t.Fatalf("%d calls, want one Digest", len(got))
	}
	var body struct {
		Chapters []readernotice.Chapter      `json:"chapters"`
		Status   []readernotice.StatusChange `json:"status"`
	}
	if err := json.Unmarshal(got[0].Body, &body); err != nil || len(body.Status) != 1 || len(body.Chapters) != 0 {
		t.Fatalf("body %s (%v), want one status change and no chapter", got[0].Body, err)
	}
	c := body.Status[0]
	if c.Status != "completed" || c.Was != "releasing" || c.FinalChapter != "10" || c.Title != "Series a" {
		t.Fatalf("change %+v", c)
	}
	d := readernotice.Digest{Status: body.Status}
	if line := d.Text(); line != "Series a is completed (final chapter 10)." {
		t.Fatalf("text %q", line)
	}
	if hl := d.Headline(); !strings.Contains(hl, "completed") {
		t.Fatalf("headline %q", hl)
	}
	w.clk.Add(time.Minute)
	w.readStatus("mangadex", "a", "10", "completed", "10")
	w.read("mangadex", "a", "11") // a chapter after the end: its own Digest, no status again
	w.run()
	got = h.received()
	if len(got) != 2 || strings.Contains(string(got[1].Body), `"status"`) {
		t.Fatalf("the second Digest (%d calls) told the change again", len(got))
	}
	if n := len(quiet.received()); n != 0 {
		t.Fatalf("the Reader on hold got %d calls", n)
	}
	if n := w.count(`SELECT count(*) FROM reader_status_notices WHERE done_at IS NULL`); n != 0 {
		t.Fatalf("%d status lines still owed", n)
	}
	// The Atom feed carries the change too, once, as an entry of its own.
	set, err := w.svc.Settings(w.ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	feed, err := w.svc.Feed(w.ctx, feedToken(t, set.FeedURL))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(feed), "Series a is completed (final chapter 10).</title>"); n != 1 ||
		!strings.Contains(string(feed), ",2026:status-change/") {
		t.Fatalf("the feed names the change %d times:\n%s", n, feed)
	}
}

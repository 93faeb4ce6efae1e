package api_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"mangabookmark/backend/store/storetest"
)

// GET /api/bookmarks tells each bookmark's time line from what the Lane
// stored: checked_at is its stamp, next_check_by the stamp plus the
// Site's Rest, expected the window after weekly Chapter Events; past
// twice the interval, overdue names the failing Site's cause and expected
// is null.
func TestBookmarkTimeLine(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	tok := e.token("200000000000000002")
	const id = "a1c7c817-4e59-43b7-9365-09675a149a6f"
	if code, body := e.do(tok, "POST", "/api/bookmarks", `{"url":"https://mangadex.org/title/`+id+`"}`); code != http.StatusCreated {
		t.Fatalf("add: %d %s", code, body)
	}
	b := listBookmarks(t, e, tok)[0]
	if b.CheckedAt != nil || b.NextCheckBy != nil || b.Expected != nil || b.Overdue != nil {
		t.Fatalf("a Series never read: %+v", b.TimeLine)
	}
	ctx := context.Background()
	const day = 24 * time.Hour
	stamp := e.now.Add(-5 * time.Minute)
	if _, ok, err := e.st.StampChecked(ctx, "mangadex", id, stamp); err != nil || !ok {
		t.Fatalf("stamp: %v %v", ok, err)
	}
	last := e.now.Add(-2 * day)
	storetest.ChapterEvents(ctx, t, e.st,
		storetest.ChapterEventOpts{Site: "mangadex", SeriesID: id, Number: "1", SeenAt: storetest.At(last.Add(-14 * day))},
		storetest.ChapterEventOpts{Site: "mangadex", SeriesID: id, Number: "2", SeenAt: storetest.At(last.Add(-7 * day))},
		storetest.ChapterEventOpts{Site: "mangadex", SeriesID: id, Number: "3", SeenAt: &last})
	b = listBookmarks(t, e, tok)[0]
	rest := e.reg.Get("mangadex").Rest
	if b.CheckedAt == nil || !b.CheckedAt.Equal(stamp) || b.NextCheckBy == nil || !b.NextCheckBy.Equal(stamp.Add(rest)) {
		t.Fatalf("checked %v, next %v; want the stamp %v and it plus Rest (%v)", b.CheckedAt, b.NextCheckBy, stamp, rest)
	}
	if b.Expected == nil || !b.Expected.From.Equal(last.Add(6*day)) || !b.Expected.To.Equal(last.Add(8*day)) || b.Overdue != nil {
		t.Fatalf("expected %+v overdue %v, want a week after the last ± a day", b.Expected, b.Overdue)
	}
	storetest.Failure(ctx, t, e.st, storetest.FailureOpts{Site: "mangadex", SeriesID: id, Since: last.Add(day)})
	e.now = last.Add(15 * day)
	b = listBookmarks(t, e, tok)[0]
	if b.Expected != nil || b.Overdue == nil || *b.Overdue != "failing" {
		t.Fatalf("two weeks on, failing: expected %+v overdue %v, want null and failing", b.Expected, b.Overdue)
	}
}

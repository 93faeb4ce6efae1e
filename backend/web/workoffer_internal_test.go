package web

import (
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/store"
)

// The partial draws the offer's two forms with the csrf field, and
// nothing for a Work with no offer.
func TestWorkOfferPartial(t *testing.T) {
	t.Parallel()
	since := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	wk := store.Work{ID: 7, Members: []store.WorkMember{
		{Site: "weebcentral", SeriesID: "1", Title: "Void Swell", Bookmarked: true, FailingSince: &since},
		{Site: "mangadex", SeriesID: "x"},
	}}
	var b strings.Builder
	if err := pages["library"].ExecuteTemplate(&b, "workoffer", workOffer(wk, "tok", "/")); err != nil {
		t.Fatal(err)
	}
	if b.String() != "" {
		t.Fatalf("a Work with no offer drew %q", b.String())
	}
	wk.Offer = &wk.Members[1]
	if err := pages["library"].ExecuteTemplate(&b, "workoffer", workOffer(wk, "tok", "/")); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`action="/library/works/7/follow"`, `formaction="/library/works/7/decline"`, `name="csrf" value="tok"`,
		`name="series_id" value="x"`, "Void Swell keeps failing to read. Follow it on mangadex instead?"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the offer lacks %q:\n%s", want, b.String())
		}
	}
}

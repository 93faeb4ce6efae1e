package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"mangabookmark/backend/admin/admintest"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/storetest"
)

// offerFixture makes the seeded Reader's failing weebcentral/1 (read to 4)
// one Work with mangadex/x, whose numbers are 100 above (offset -100):
// the Work offers mangadex/x.
func offerFixture(t *testing.T) (*fixture, int64) {
	t.Helper()
	f := newFixture(t, "")
	ctx := context.Background()
	storetest.Series(ctx, t, f.st, storetest.SeriesOpts{Site: "mangadex", ID: "x", URL: "https://mangadex.test/title/x", Title: "X", LatestNumber: "106"})
	storetest.Progress(ctx, t, f.st, storetest.ProgressOpts{ReaderID: 2, Site: "weebcentral", SeriesID: "1", Number: "4", ReadAt: storetest.At(admintest.Now)})
	id := []store.ExternalID{{Kind: "al", Value: "4242", Source: store.IDFromSite}}
	if _, err := f.st.AddSeriesIDs(ctx, []store.SeriesIDs{{Site: "weebcentral", SeriesID: "1", IDs: id}, {Site: "mangadex", SeriesID: "x", IDs: id}}); err != nil {
		t.Fatal(err)
	}
	wk, err := f.st.WorkOf(ctx, "mangadex", "x")
	if err != nil {
		t.Fatal(err)
	}
	if err := f.st.SetSharedMemberOffset(ctx, wk, "mangadex", "x", "-100"); err != nil {
		t.Fatal(err)
	}
	if w, err := f.st.ReaderWork(ctx, 2, wk, f.clock.Now()); err != nil || w.Offer == nil || w.Offer.Site != "mangadex" {
		t.Fatalf("the Work's offer %+v (%v), want mangadex", w.Offer, err)
	}
	return f, wk
}

func TestWorkOfferFollowForm(t *testing.T) {
	t.Parallel()
	f, wk := offerFixture(t)
	c := f.login(t, f.readerToken)
	path := fmt.Sprintf("/library/works/%d/follow", wk)
	form := url.Values{"site": {"mangadex"}, "series_id": {"x"}, "back": {"/"}}
	if a := f.postForm(t, c, path, form); a.code != http.StatusForbidden {
		t.Fatalf("without csrf: %d, want 403", a.code)
	}
	form.Set("csrf", f.csrf(t, c, "/"))
	if a := f.postForm(t, c, "/library/works/999999/follow", form); a.code != http.StatusNotFound {
		t.Fatalf("another Work: %d, want 404", a.code)
	}
	if a := f.postForm(t, c, path, form); a.code != http.StatusSeeOther {
		t.Fatalf("follow: %d %s", a.code, a.body)
	}
	p, err := f.st.GetProgress(context.Background(), 2, "mangadex", "x")
	if err != nil || p.Number != "104" {
		t.Fatalf("Progress on mangadex %+v (%v), want 4 + 100 = 104", p, err)
	}
	if w, err := f.st.ReaderWork(context.Background(), 2, wk, f.clock.Now()); err != nil || w.Offer != nil {
		t.Fatalf("the offer after following: %+v (%v)", w.Offer, err)
	}
}

func TestWorkOfferDeclineForm(t *testing.T) {
	t.Parallel()
	f, wk := offerFixture(t)
	c := f.login(t, f.readerToken)
	form := url.Values{"csrf": {f.csrf(t, c, "/")}, "back": {"/"}}
	if a := f.postForm(t, c, fmt.Sprintf("/library/works/%d/decline", wk), form); a.code != http.StatusSeeOther {
		t.Fatalf("decline: %d %s", a.code, a.body)
	}
	if w, err := f.st.ReaderWork(context.Background(), 2, wk, f.clock.Now().Add(time.Hour)); err != nil || w.Offer != nil {
		t.Fatalf("the offer after declining: %+v (%v)", w.Offer, err)
	}
}

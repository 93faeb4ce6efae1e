package comix

import (
	"context"
	"testing"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/golden"
	"mangabookmark/backend/sites/sitestest"
)

// The retired chapter API answers 404 for every Series. The adapter never
// asks it, so however it answers, a Series whose title page reads is never
// gone: the read is ok from the page alone, with one request.
func TestReadRetiredChapterAPIIsNeverNotFound(t *testing.T) {
	t.Parallel()
	site := &sites.Site{Name: "comix", Hosts: []string{"comix.to"}, Browser: true, Origin: base}
	page := base + "/title/" + id
	f := sitestest.NewFetcher()
	f.Set(page, sitestest.Answer{Resp: sitestest.Response(page, 200, "text/html", golden.Fixture(t, "title_latest.html"))})
	for _, api := range []string{
		base + "/api/v2/manga/keqvv/chapters?order[number]=desc&limit=100&page=1",
		base + "/api/v1/manga/keqvv/chapters?order[number]=desc&limit=100&page=1",
	} {
		f.Set(api, sitestest.Answer{Resp: sitestest.Response(api, 404, "application/json", []byte(`{"status":404,"message":"Not Found"}`))})
	}
	res := Adapter{Now: func() time.Time { return readAt }}.Read(context.Background(), site, f, id)
	if res.Outcome != sites.OK || res.Facts.Latest == nil || res.Facts.Latest.Number != "41" {
		t.Fatalf("outcome %s (%v), facts %+v", res.Outcome, res.Err, res.Facts)
	}
	if reqs := f.Requests(); len(reqs) != 1 || reqs[0].Data != "" {
		t.Errorf("requests %+v", reqs)
	}
}

// The relative time counts from the answer's Date (the Site's clock) when
// it is sane; a Date far in the future or the past, or none, falls back to
// the adapter's clock, so a Site cannot date its chapter into the future.
func TestReadRelativeTimeFromDate(t *testing.T) {
	t.Parallel()
	site := &sites.Site{Name: "comix", Hosts: []string{"comix.to"}, Browser: true, Origin: base}
	page := base + "/title/" + id
	for date, want := range map[string]time.Time{
		"Tue, 01 Dec 2026 08:10:00 GMT": time.Date(2026, 11, 30, 23, 0, 0, 0, time.UTC), // the Site's own clock
		"Fri, 01 Jan 2100 00:00:00 GMT": time.Date(2026, 12, 1, 1, 0, 0, 0, time.UTC),   // ahead: the clock
		"Thu, 01 Jan 1970 00:00:00 GMT": time.Date(2026, 12, 1, 1, 0, 0, 0, time.UTC),   // long past: the clock
		"yesterday":                     time.Date(2026, 12, 1, 1, 0, 0, 0, time.UTC),
		"":                              time.Date(2026, 12, 1, 1, 0, 0, 0, time.UTC),
	} {
		resp := sitestest.Response(page, 200, "text/html", golden.Fixture(t, "title_latest.html"))
		resp.Header.Set("Date", date)
		f := sitestest.NewFetcher()
		f.Set(page, sitestest.Answer{Resp: resp})
		res := Adapter{Now: func() time.Time { return readAt }}.Read(context.Background(), site, f, id)
		if res.Facts.Latest == nil || !res.Facts.Latest.ReleasedAt.Equal(want) {
			t.Errorf("Date %q: latest %+v, want released %v", date, res.Facts.Latest, want)
		}
	}
}

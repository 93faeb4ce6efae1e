package sitestest_test

import (
	"context"
	"errors"
	"net/url"
	"testing"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/sitestest"
)

func TestFetcher(t *testing.T) {
	t.Parallel()
	f := sitestest.NewFetcher()
	f.SetBody("https://a.test/page", 200, "text/html", []byte("hi"))
	f.SetError("https://a.test/data", sites.ErrUnreachable)
	ctx := context.Background()
	r, err := f.Fetch(ctx, sites.Request{Page: "https://a.test/page"})
	if err != nil || string(r.Body) != "hi" || r.FinalURL.Host != "a.test" {
		t.Fatalf("page: %+v %v", r, err)
	}
	if _, err := f.Fetch(ctx, sites.Request{Page: "https://a.test/page", Data: "https://a.test/data"}); !errors.Is(err, sites.ErrUnreachable) {
		t.Fatalf("data: %v", err)
	}
	if r, err := f.Fetch(ctx, sites.Request{Page: "https://a.test/none"}); err != nil || r.Status != 404 {
		t.Fatalf("unscripted: %+v %v", r, err)
	}
	f.Default = &sitestest.Answer{Err: sites.ErrChallenge}
	if _, err := f.Fetch(ctx, sites.Request{Page: "https://a.test/none"}); !errors.Is(err, sites.ErrChallenge) {
		t.Fatalf("default: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := f.Fetch(cctx, sites.Request{Page: "https://a.test/page"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	if n := len(f.Requests()); n != 5 {
		t.Fatalf("%d requests recorded", n)
	}
}

func TestAdapterInRegistry(t *testing.T) {
	t.Parallel()
	s, a := sitestest.Site("fake", true)
	reg, err := sites.NewRegistry([]*sites.Site{s})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := reg.Canonicalize("https://www.fake.test/series/s1/chapter-2")
	if err != nil || ref != (sites.Ref{Site: "fake", SeriesID: "s1", URL: "https://fake.test/series/s1"}) {
		t.Fatalf("canonicalize: %+v %v", ref, err)
	}
	a.SetOutcome("s2", sites.NoChapter)
	a.SetLatest("s3", "12.5")
	ctx := context.Background()
	if r := a.Read(ctx, s, nil, "s1"); r.Outcome != sites.OK || r.Facts.Latest.Number != "1" {
		t.Errorf("default: %+v", r)
	}
	if r := a.Read(ctx, s, nil, "s2"); r.Outcome != sites.NoChapter || r.Err == nil {
		t.Errorf("scripted failure: %+v", r)
	}
	if r := a.Read(ctx, s, nil, "s3"); r.Outcome != sites.OK || r.Facts.Latest.Number != "12.5" {
		t.Errorf("scripted latest: %+v", r)
	}
	a.UseFetcher = true
	f := sitestest.NewFetcher()
	f.SetError("https://fake.test/series/s3", sites.ErrChallenge)
	if r := a.Read(ctx, s, f, "s3"); r.Outcome != sites.Refused {
		t.Errorf("through route: %+v", r)
	}
	if got := a.Reads(); len(got) != 4 || got[3] != "s3" {
		t.Errorf("reads %v", got)
	}
	if _, err := a.SeriesID(&url.URL{Path: "/other/x"}); !errors.Is(err, sites.ErrNoSeries) {
		t.Errorf("bad path: %v", err)
	}
}

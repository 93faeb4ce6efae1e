package api_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"mangabookmark/backend/admin"
	"mangabookmark/backend/api"
	"mangabookmark/backend/api/apitest"
	"mangabookmark/backend/lanes"
	"mangabookmark/backend/lanes/lanestest"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/sitestest"
	"mangabookmark/backend/store/dbtest"
	"mangabookmark/client"
)

// TestAdminAfterRealLaneRun lays passes and failures down with real Lane
// passes (scripted Site, simulated clock) and reads them back through the
// admin API, forced poll included.
func TestAdminAfterRealLaneRun(t *testing.T) {
	t.Parallel()
	st := dbtest.New(t)
	ctx := context.Background()
	plain, ad := sitestest.Site("plainsite", false)
	browsy, _ := sitestest.Site("browsy", true)
	reg, err := sites.NewRegistry([]*sites.Site{plain, browsy})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"1", "2", "3", "4"} {
		if _, err := st.EnsureSeries(ctx, "plainsite", id, "https://plainsite.test/series/"+id); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.EnsureSeries(ctx, "browsy", "1", "https://browsy.test/series/1"); err != nil {
		t.Fatal(err)
	}
	ad.SetOutcome("2", sites.NotFound)
	ad.SetOutcome("3", sites.Errors)
	ad.SetOutcome("4", sites.NoChapter)
	clock := lanestest.NewFakeClock(time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC))
	m, err := lanes.New(lanes.Config{Store: st, Sites: reg, Plain: sitestest.NewFetcher(), Clock: clock, Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	pass := func() {
		clock.SetActors(1)
		defer clock.SetActors(0)
		m.RunPass(ctx, "plainsite")
		m.RunPass(ctx, "browsy")
	}
	pass()
	adm, err := admin.New(admin.Config{Store: st, Sites: reg, Lanes: m, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(newServer(t, api.Config{Store: st, Sites: reg, Auth: apitest.Auth{}, Admin: adm, Now: clock.Now}))
	defer srv.Close()
	c, _ := client.New(srv.URL, apitest.OwnerToken)

	ls, err := c.Lanes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p := ls[0]
	if p.Site != "plainsite" || p.State != client.StateIdle || p.Series != 4 || p.Due != 0 || p.Failing != 3 || p.LastPass == nil {
		t.Fatalf("plainsite after a pass = %+v", p)
	}
	lp := p.LastPass
	if lp.Due != 4 || lp.Checked != 4 || lp.OK != 1 || lp.NotFound != 1 || lp.Errors != 1 || lp.NoChapter != 1 {
		t.Errorf("last pass = %+v", lp)
	}
	if b := ls[1]; b.State != client.StateNoBrowser || b.Due != 1 || b.LastPass == nil || b.LastPass.Checked != 0 {
		t.Errorf("browsy with no browser route = %+v (last pass %+v)", b, b.LastPass)
	}
	fl, err := c.Failing(ctx, client.FailingFilter{Site: "plainsite"})
	if err != nil || fl.Total != 3 {
		t.Fatalf("failing = %+v, %v", fl, err)
	}
	outcomes := map[string]string{}
	for _, f := range fl.Failing {
		outcomes[f.SeriesID] = f.Outcome
	}
	if outcomes["2"] != "not_found" || outcomes["3"] != "errors" || outcomes["4"] != "no_chapter" {
		t.Errorf("failing outcomes = %v", outcomes)
	}

	// Force the not-found Series after it recovers: the next pass reads it
	// alone and the success path clears its failure row.
	clock.Advance(time.Minute)
	ad.SetOutcome("2", sites.OK)
	if _, err := c.Force(ctx, "plainsite", "2"); err != nil {
		t.Fatal(err)
	}
	ls, _ = c.Lanes(ctx)
	if ls[0].ForcedPending != 1 || ls[0].Due != 1 || ls[0].State != client.StateRunning {
		t.Errorf("after force = forced %d due %d state %s", ls[0].ForcedPending, ls[0].Due, ls[0].State)
	}
	pass()
	ls, _ = c.Lanes(ctx)
	if ls[0].ForcedPending != 0 || ls[0].LastPass.Checked != 1 || ls[0].LastPass.OK != 1 {
		t.Errorf("after the forced pass = forced %d, last pass %+v", ls[0].ForcedPending, ls[0].LastPass)
	}
	passes, err := c.Passes(ctx, "plainsite", 0)
	if err != nil || len(passes) != 2 || !passes[0].StartedAt.After(passes[1].StartedAt) {
		t.Errorf("passes = %+v, %v", passes, err)
	}
	if fl, _ := c.Failing(ctx, client.FailingFilter{Site: "plainsite"}); fl.Total != 2 {
		t.Errorf("failing after the forced success = %d, want 2", fl.Total)
	}
}

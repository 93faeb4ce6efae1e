package api_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/admin/admintest"
	"mangabookmark/backend/api/apitest"
	"mangabookmark/client"
)

func TestAdminPauseAndResume(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	now := admintest.Now
	status, body := adminDo(t, f, apitest.OwnerToken, "POST", "/api/admin/lanes/weebcentral/pause",
		`{"for_s":5400,"reason":"mirror moving"}`)
	if status != http.StatusOK {
		t.Fatalf("pause = %d %s", status, body)
	}
	var raw map[string]any
	if err := json.Unmarshal(body, &raw); err != nil {
		t.Fatal(err)
	}
	adminKeys(t, raw, adminLaneFields...)
	var l client.Lane
	if err := json.Unmarshal(body, &l); err != nil {
		t.Fatal(err)
	}
	if l.State != "paused" || l.PausedUntil == nil || !l.PausedUntil.Equal(now.Add(90*time.Minute)) || l.PauseReason != "mirror moving" {
		t.Errorf("after pause: %+v", l)
	}

	until := now.Add(3 * time.Hour).Format(time.RFC3339)
	status, body = adminDo(t, f, apitest.OwnerToken, "POST", "/api/admin/lanes/mangapill/pause", `{"until":"`+until+`"}`)
	if status != http.StatusOK {
		t.Fatalf("pause until = %d %s", status, body)
	}
	_ = json.Unmarshal(body, &l)
	if l.State != "paused" || !l.PausedUntil.Equal(now.Add(3*time.Hour)) || l.PauseReason != "" {
		t.Errorf("after pause until: %+v", l)
	}

	status, body = adminDo(t, f, apitest.OwnerToken, "DELETE", "/api/admin/lanes/weebcentral/pause", "")
	if status != http.StatusOK {
		t.Fatalf("resume = %d %s", status, body)
	}
	_ = json.Unmarshal(body, &l)
	if l.State != "running" || l.PausedUntil != nil || l.PauseReason != "" {
		t.Errorf("after resume: %+v", l)
	}
	// Resuming a Lane never paused answers the Lane as it is.
	status, body = adminDo(t, f, apitest.OwnerToken, "DELETE", "/api/admin/lanes/kagane/pause", "")
	if status != http.StatusOK {
		t.Fatalf("resume unpaused = %d %s", status, body)
	}
	if w := f.Lanes.Wakes(); !slices.Equal(w, []string{"weebcentral", "mangapill", "weebcentral", "kagane"}) {
		t.Errorf("wakes = %v", w)
	}
}

func TestAdminPauseBadBodies(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	past := admintest.Now.Add(-time.Minute).Format(time.RFC3339)
	future := admintest.Now.Add(time.Hour).Format(time.RFC3339)
	for _, body := range []string{
		`{"for_s":0}`,
		`{"for_s":-60}`,
		`{"for_s":1.5}`,
		`{"for_s":"1h"}`,
		`{"for_s":999999999}`,
		`{"until":"` + past + `"}`,
		`{"until":"tomorrow"}`,
		`{"for_s":60,"until":"` + future + `"}`,
		`{"reason":"no length"}`,
		`{}`,
		`{"for_s":60,"extra":1}`,
		`{"for_s":60,"reason":"` + strings.Repeat("x", 501) + `"}`,
		`not json`,
	} {
		status, resp := adminDo(t, f, apitest.OwnerToken, "POST", "/api/admin/lanes/weebcentral/pause", body)
		if status != http.StatusBadRequest {
			t.Errorf("pause %s = %d %s, want 400", body, status, resp)
		}
	}
	got := adminGet[client.LanesResponse](t, f, "/api/admin/lanes")
	for _, l := range got.Lanes {
		if l.Site == "weebcentral" && l.PausedUntil != nil {
			t.Errorf("a refused pause paused the Lane until %v", l.PausedUntil)
		}
	}
}

func TestAdminForce(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	status, body := adminDo(t, f, apitest.OwnerToken, "POST", "/api/admin/series/mangapill/2/force", "")
	if status != http.StatusAccepted {
		t.Fatalf("force = %d %s", status, body)
	}
	var fr client.ForceResponse
	if err := json.Unmarshal(body, &fr); err != nil || !fr.ForcePollAt.Equal(admintest.Now) {
		t.Errorf("force body = %s (%v)", body, err)
	}
	got := adminGet[client.LanesResponse](t, f, "/api/admin/lanes")
	for _, l := range got.Lanes {
		if l.Site == "mangapill" && (l.ForcedPending != 1 || l.Due != 1 || l.State != "running") {
			t.Errorf("mangapill after force = forced %d due %d state %s, want 1 1 running", l.ForcedPending, l.Due, l.State)
		}
	}
	status, body = adminDo(t, f, apitest.OwnerToken, "POST", "/api/admin/series/mangapill/nosuch/force", "")
	if status != http.StatusNotFound || !strings.Contains(string(body), "nosuch") {
		t.Errorf("force unknown Series = %d %s, want 404 naming it", status, body)
	}
	if w := f.Lanes.Wakes(); !slices.Equal(w, []string{"mangapill"}) {
		t.Errorf("wakes = %v, want [mangapill]", w)
	}
}

func TestAdminPasses(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	raw := adminGet[map[string][]map[string]any](t, f, "/api/admin/lanes/weebcentral/passes")
	if len(raw["passes"]) != 30 {
		t.Fatalf("passes = %d, want 30", len(raw["passes"]))
	}
	adminKeys(t, raw["passes"][0], adminPassFields...)
	got := adminGet[client.PassesResponse](t, f, "/api/admin/lanes/weebcentral/passes?limit=5")
	if len(got.Passes) != 5 {
		t.Fatalf("limit=5 gave %d", len(got.Passes))
	}
	for i := 1; i < len(got.Passes); i++ {
		if !got.Passes[i].StartedAt.Before(got.Passes[i-1].StartedAt) {
			t.Errorf("passes not newest first at %d", i)
		}
	}
	if got.Passes[0].BehindByS != 7200 || got.Passes[1].BehindByS != 6960 {
		t.Errorf("behind_by_s = %d, %d; want 7200, 6960", got.Passes[0].BehindByS, got.Passes[1].BehindByS)
	}
	if e := adminGet[client.PassesResponse](t, f, "/api/admin/lanes/kagane/passes"); len(e.Passes) != 1 {
		t.Errorf("kagane passes = %d, want 1", len(e.Passes))
	}
	for _, bad := range []string{"0", "-1", "x", "1001", "2.5"} {
		status, _ := adminDo(t, f, apitest.OwnerToken, "GET", "/api/admin/lanes/weebcentral/passes?limit="+bad, "")
		if status != http.StatusBadRequest {
			t.Errorf("limit=%s = %d, want 400", bad, status)
		}
	}
}

func TestAdminFailing(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	raw := adminGet[struct {
		Failing []map[string]any `json:"failing"`
	}](t, f, "/api/admin/failing")
	if len(raw.Failing) != 11 {
		t.Fatalf("failing = %d, want 11", len(raw.Failing))
	}
	adminKeys(t, raw.Failing[0], "site", "series_id", "title", "url", "outcome", "failing_since", "latest_checked_at")

	all := adminGet[client.FailingResponse](t, f, "/api/admin/failing")
	if all.Total != 11 {
		t.Errorf("total = %d", all.Total)
	}
	for i := 1; i < len(all.Failing); i++ {
		if all.Failing[i].FailingSince.Before(all.Failing[i-1].FailingSince) {
			t.Errorf("not oldest failure first at %d", i)
		}
	}
	first := all.Failing[0]
	if first.Site != "weebcentral" || first.SeriesID != "1" || first.Title != "weebcentral title 1" ||
		first.URL != "https://weebcentral.test/series/1" || first.Outcome != "no_chapter" ||
		!first.FailingSince.Equal(admintest.Now.Add(-9*24*time.Hour)) || first.LatestCheckedAt == nil {
		t.Errorf("first = %+v", first)
	}
	bySite := adminGet[client.FailingResponse](t, f, "/api/admin/failing?site=comix")
	if len(bySite.Failing) != 4 || bySite.Total != 4 {
		t.Errorf("site=comix gave %d (total %d), want 4", len(bySite.Failing), bySite.Total)
	}
	both := adminGet[client.FailingResponse](t, f, "/api/admin/failing?site=weebcentral&outcome=errors")
	if len(both.Failing) != 2 || both.Failing[0].SeriesID != "4" {
		t.Errorf("weebcentral errors = %+v", both.Failing)
	}
	limited := adminGet[client.FailingResponse](t, f, "/api/admin/failing?outcome=unfetchable&limit=1")
	if len(limited.Failing) != 1 || limited.Total != 3 {
		t.Errorf("unfetchable limit 1 = %d rows, total %d; want 1, 3", len(limited.Failing), limited.Total)
	}
	for _, q := range []string{"outcome=ok", "outcome=refused", "site=nosuch", "limit=0"} {
		status, body := adminDo(t, f, apitest.OwnerToken, "GET", "/api/admin/failing?"+q, "")
		if status != http.StatusBadRequest {
			t.Errorf("failing?%s = %d %s, want 400", q, status, body)
		}
	}
}

func TestAdminNotices(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	raw := adminGet[struct {
		Notices  []map[string]any `json:"notices"`
		Trackers map[string]any   `json:"trackers"`
	}](t, f, "/api/admin/notices")
	if len(raw.Notices) != 2 {
		t.Fatalf("notices = %v", raw)
	}
	adminKeys(t, raw.Notices[0], "kind", "site", "since", "notified_at")
	adminKeys(t, raw.Trackers, "ok", "reconnect", "failing", "off")
	got := adminGet[client.NoticesResponse](t, f, "/api/admin/notices")
	a, b := got.Notices[0], got.Notices[1]
	if a.Kind != "adapter-broken" || a.Site != "weebcentral" || !a.Since.Equal(admintest.Now.Add(-30*time.Hour)) || a.NotifiedAt == nil {
		t.Errorf("first notice = %+v", a)
	}
	if b.Kind != "sidecar-down" || b.Site != "" || b.NotifiedAt != nil {
		t.Errorf("second notice = %+v", b)
	}
}

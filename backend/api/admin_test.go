package api_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/admin/admintest"
	"mangabookmark/backend/api"
	"mangabookmark/backend/api/apitest"
	"mangabookmark/client"
)

// adminDo sends one request with the given token and returns status and body.
func adminDo(t *testing.T, f *apitest.Fixture, token, method, path, body string) (int, []byte) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, f.URL()+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

func adminGet[T any](t *testing.T, f *apitest.Fixture, path string) T {
	t.Helper()
	status, b := adminDo(t, f, apitest.OwnerToken, "GET", path, "")
	if status != http.StatusOK {
		t.Fatalf("GET %s = %d %s", path, status, b)
	}
	var out T
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("GET %s: %v in %s", path, err, b)
	}
	return out
}

func adminKeys(t *testing.T, obj map[string]any, want ...string) {
	t.Helper()
	for _, k := range want {
		if _, ok := obj[k]; !ok {
			t.Errorf("field %q missing from %v", k, obj)
		}
	}
}

var adminLaneFields = []string{"site", "browser", "state", "rest_s", "gap_s", "effective_gap_s", "series",
	"due", "behind_by_s", "forced_pending", "failing", "refuse_until", "paused_until", "pause_reason", "last_pass"}

var adminPassFields = []string{"started_at", "finished_at", "due", "checked", "ok", "new", "not_found",
	"no_chapter", "unfetchable", "errors", "refused", "unreachable", "skip", "behind_by_s"}

func TestAdminLanesContract(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	raw := adminGet[map[string][]map[string]any](t, f, "/api/admin/lanes")
	if len(raw["lanes"]) != len(admintest.SiteNames) {
		t.Fatalf("lanes = %d, want %d", len(raw["lanes"]), len(admintest.SiteNames))
	}
	for _, l := range raw["lanes"] {
		adminKeys(t, l, adminLaneFields...)
		if lp, ok := l["last_pass"].(map[string]any); ok {
			adminKeys(t, lp, adminPassFields...)
		} else {
			t.Errorf("lane %v: last_pass is not an object", l["site"])
		}
	}

	got := adminGet[client.LanesResponse](t, f, "/api/admin/lanes")
	var order []string
	bySite := map[string]client.Lane{}
	for _, l := range got.Lanes {
		order = append(order, l.Site)
		bySite[l.Site] = l
	}
	if !slices.Equal(order, admintest.SiteNames) {
		t.Errorf("order = %v, want registry order %v", order, admintest.SiteNames)
	}
	now := admintest.Now
	wantState := map[string]string{"kagane": "asleep", "comix": "refusing", "mangadex": "paused",
		"weebcentral": "running", "mangapill": "idle", "natomanga": "no_browser"}
	for site, want := range wantState {
		if bySite[site].State != want {
			t.Errorf("%s state = %q, want %q", site, bySite[site].State, want)
		}
	}
	wc := bySite["weebcentral"]
	if wc.Series != 40 || wc.Due != 12 || wc.Failing != 6 || wc.ForcedPending != 0 {
		t.Errorf("weebcentral counts = series %d due %d failing %d forced %d, want 40 12 6 0", wc.Series, wc.Due, wc.Failing, wc.ForcedPending)
	}
	// The oldest due weebcentral Series was checked 3h12m ago; Rest is 1h.
	if wc.BehindByS != int64((2*time.Hour + 12*time.Minute).Seconds()) {
		t.Errorf("weebcentral behind_by_s = %d, want %d", wc.BehindByS, int64((2*time.Hour + 12*time.Minute).Seconds()))
	}
	if wc.RestS != 3600 || wc.GapS != 10 || wc.EffectiveGapS != 10 || wc.Browser {
		t.Errorf("weebcentral pace = rest %d gap %d eff %d browser %v", wc.RestS, wc.GapS, wc.EffectiveGapS, wc.Browser)
	}
	if wc.LastPass == nil || !wc.LastPass.StartedAt.Equal(now.Add(-3*time.Minute)) || wc.LastPass.Checked != 9 ||
		wc.LastPass.OK != 5 || wc.LastPass.BehindByS != int64((120*time.Minute).Seconds()) {
		t.Errorf("weebcentral last pass = %+v", wc.LastPass)
	}
	cx := bySite["comix"]
	if cx.RefuseUntil == nil || !cx.RefuseUntil.Equal(now.Add(10*time.Minute)) || cx.PausedUntil != nil {
		t.Errorf("comix windows = refuse %v pause %v", cx.RefuseUntil, cx.PausedUntil)
	}
	if !cx.Browser || cx.Due != 20 || cx.Failing != 4 || cx.LastPass == nil || cx.LastPass.Refused != 2 {
		t.Errorf("comix = %+v", cx)
	}
	md := bySite["mangadex"]
	if md.PausedUntil == nil || !md.PausedUntil.Equal(now.Add(2*time.Hour)) || md.PauseReason != "site migration" {
		t.Errorf("mangadex pause = %v %q", md.PausedUntil, md.PauseReason)
	}
	// Never-checked Series are due from created_at (30 days ago).
	if nm := bySite["natomanga"]; nm.Due != 8 || nm.BehindByS != int64((30*24*time.Hour).Seconds()) || nm.LastPass.Skip != "no_browser" {
		t.Errorf("natomanga = %+v", nm)
	}
	if mp := bySite["mangapill"]; mp.Due != 0 || mp.BehindByS != 0 || mp.Failing != 1 {
		t.Errorf("mangapill = %+v", mp)
	}
}

func TestAdminLanesDisabledWithoutRuntime(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	f.Lanes.SetRuntime("weebcentral", admintest.DisabledRuntime())
	got := adminGet[client.LanesResponse](t, f, "/api/admin/lanes")
	for _, l := range got.Lanes {
		if l.Site == "weebcentral" && l.State != "disabled" {
			t.Errorf("weebcentral with the poll switch off = %q, want disabled", l.State)
		}
	}
}

func TestAdminOwnerOnly(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	routes := []struct{ method, path, body string }{
		{"GET", "/api/admin/lanes", ""},
		{"GET", "/api/admin/lanes/weebcentral/passes", ""},
		{"GET", "/api/admin/failing", ""},
		{"POST", "/api/admin/series/weebcentral/1/force", ""},
		{"POST", "/api/admin/lanes/weebcentral/pause", `{"for_s":60}`},
		{"DELETE", "/api/admin/lanes/weebcentral/pause", ""},
		{"GET", "/api/admin/notices", ""},
	}
	for _, r := range routes {
		for _, c := range []struct {
			token string
			want  int
		}{{"", 401}, {"bogus", 401}, {apitest.ReaderToken, 403}} {
			status, body := adminDo(t, f, c.token, r.method, r.path, r.body)
			if status != c.want {
				t.Errorf("%s %s with token %q = %d, want %d", r.method, r.path, c.token, status, c.want)
			}
			var e map[string]string
			if json.Unmarshal(body, &e) != nil || e["error"] == "" {
				t.Errorf("%s %s: error body = %s", r.method, r.path, body)
			}
		}
	}
	if w := f.Lanes.Wakes(); len(w) != 0 {
		t.Errorf("refused requests woke Lanes: %v", w)
	}
}

func TestAdminUnknownSite(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	for _, r := range []struct{ method, path, body string }{
		{"GET", "/api/admin/lanes/nosuch/passes", ""},
		{"POST", "/api/admin/series/nosuch/1/force", ""},
		{"POST", "/api/admin/lanes/nosuch/pause", `{"for_s":60}`},
		{"DELETE", "/api/admin/lanes/nosuch/pause", ""},
	} {
		status, body := adminDo(t, f, apitest.OwnerToken, r.method, r.path, r.body)
		if status != http.StatusNotFound {
			t.Errorf("%s %s = %d, want 404", r.method, r.path, status)
		}
		for _, n := range admintest.SiteNames {
			if !strings.Contains(string(body), n) {
				t.Errorf("%s %s: 404 body %s does not name %s", r.method, r.path, body, n)
			}
		}
	}
}

func TestAdminWithoutSites(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	srv := httptest.NewServer(newServer(t, api.Config{Store: f.Store, Auth: apitest.Auth{}}))
	defer srv.Close()
	c, _ := client.New(srv.URL, apitest.OwnerToken)
	if lanes, err := c.Lanes(context.Background()); err != nil || len(lanes) != 0 {
		t.Errorf("lanes with no registry = %v, %v", lanes, err)
	}
	var apiErr *client.APIError
	if _, err := c.Passes(context.Background(), "kagane", 0); !errors.As(err, &apiErr) || apiErr.Status != 404 {
		t.Errorf("passes with no registry = %v, want 404", err)
	}
}

// A new bookmark (a Series never checked) opens a browser Lane's wake
// gate, as in the pass: kagane, asleep with two routine due Series, shows
// running once a never-checked Series joins them.
func TestAdminNewBookmarkWakesAsleepLane(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	if got := adminLaneState(t, f, "kagane"); got != client.StateAsleep {
		t.Fatalf("kagane before the bookmark: %q, want asleep", got)
	}
	if _, err := f.Store.EnsureSeries(context.Background(), "kagane", "new-one", "https://kagane.org/series/new-one"); err != nil {
		t.Fatal(err)
	}
	if got := adminLaneState(t, f, "kagane"); got != client.StateRunning {
		t.Errorf("kagane with a never-checked Series: %q, want running", got)
	}
}

func adminLaneState(t *testing.T, f *apitest.Fixture, site string) string {
	t.Helper()
	for _, l := range adminGet[client.LanesResponse](t, f, "/api/admin/lanes").Lanes {
		if l.Site == site {
			return l.State
		}
	}
	t.Fatalf("no Lane %s", site)
	return ""
}

package api_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"mangabookmark/backend/admin/admintest"
	"mangabookmark/backend/api/apitest"
	"mangabookmark/backend/lanes"
	"mangabookmark/backend/sites"
)

// scrape fetches /metrics and parses it with Prometheus' own text parser.
func scrape(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url+"/metrics", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+apitest.OwnerToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("metrics: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	p := expfmt.NewTextParser(model.LegacyValidation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("metrics do not parse: %v", err)
	}
	return fams
}

// value finds the sample of family name whose labels include want.
func value(t *testing.T, fams map[string]*dto.MetricFamily, name string, want map[string]string) (*dto.Metric, bool) {
	t.Helper()
	f, ok := fams[name]
	if !ok {
		t.Errorf("metrics lack the family %s", name)
		return nil, false
	}
next:
	for _, m := range f.GetMetric() {
		have := map[string]string{}
		for _, l := range m.GetLabel() {
			have[l.GetName()] = l.GetValue()
		}
		for k, v := range want {
			if have[k] != v {
				continue next
			}
		}
		return m, true
	}
	return nil, false
}

// /metrics tells nothing without the Owner's token: 401 with none, 403 for
// a Reader's.
func TestMetricsNeedTheOwnersToken(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	for token, want := range map[string]int{"": http.StatusUnauthorized, apitest.ReaderToken: http.StatusForbidden} {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, f.URL()+"/metrics", nil)
		if err != nil {
			t.Fatal(err)
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want || strings.Contains(string(body), "mangabookmark_") {
			t.Errorf("token %q: %d %q, want %d and no metric", token, resp.StatusCode, body, want)
		}
	}
}

func TestMetricsExposeLanesAndRequests(t *testing.T) {
	t.Parallel()
	f := apitest.Start(t)
	// One 404 and one 401 before the scrape, so the counters have moved.
	for _, p := range []string{"/nope", "/api/me"} {
		resp, err := http.Get(f.URL() + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	f.Metrics.ObserveLaneRead("mangadex", sites.NoChapter, 1500*time.Millisecond)
	fams := scrape(t, f.URL())

	gauge := func(name string, labels map[string]string, want float64) {
		t.Helper()
		m, ok := value(t, fams, name, labels)
		if !ok {
			t.Errorf("%s%v: no sample", name, labels)
			return
		}
		if got := m.GetGauge().GetValue() + m.GetCounter().GetValue(); got != want {
			t.Errorf("%s%v = %g, want %g", name, labels, got, want)
		}
	}
	gauge("mangabookmark_up", nil, 1)
	gauge("mangabookmark_build_info", map[string]string{"version": "test"}, 1)
	gauge("mangabookmark_http_requests_total", map[string]string{"class": "4xx"}, 2)
	gauge("mangabookmark_http_requests_total", map[string]string{"class": "5xx"}, 0)
	gauge("mangabookmark_lane_state", map[string]string{"site": "comix", "state": "refusing"}, 1)
	gauge("mangabookmark_lane_state", map[string]string{"site": "comix", "state": "running"}, 0)
	gauge("mangabookmark_lane_state", map[string]string{"site": "mangadex", "state": "paused"}, 1)
	// Every state of backend/lanes' one list has a series on every Lane,
	// exactly one at 1, and no other word has one.
	if got := len(fams["mangabookmark_lane_state"].GetMetric()); got != len(lanes.States)*len(admintest.SiteNames) {
		t.Errorf("mangabookmark_lane_state has %d series, want %d states × %d Lanes", got, len(lanes.States), len(admintest.SiteNames))
	}
	for _, site := range admintest.SiteNames {
		on := 0.0
		for _, st := range lanes.States {
			if m, ok := value(t, fams, "mangabookmark_lane_state", map[string]string{"site": site, "state": st}); ok {
				on += m.GetGauge().GetValue()
			} else {
				t.Errorf("mangabookmark_lane_state{site=%s,state=%s}: no sample", site, st)
			}
		}
		if on != 1 {
			t.Errorf("%s: %g states at 1, want exactly one", site, on)
		}
	}
	for _, fam := range []string{"mangabookmark_lane_series", "mangabookmark_lane_due", "mangabookmark_lane_failing",
		"mangabookmark_lane_behind_by_seconds", "mangabookmark_lane_last_pass_timestamp_seconds"} {
		if got := fams[fam]; got == nil || got.GetType() != dto.MetricType_GAUGE || len(got.GetMetric()) != len(admintest.SiteNames) {
			t.Errorf("%s: want one gauge per Site, got %v", fam, got)
		}
	}

	// Latency by route pattern and status class.
	h, ok := value(t, fams, "mangabookmark_http_request_duration_seconds", map[string]string{"route": "GET /api/me", "class": "4xx"})
	if !ok || h.GetHistogram().GetSampleCount() != 1 {
		t.Errorf("no latency sample for the 401 on GET /api/me: %v", h)
	}
	if _, ok := value(t, fams, "mangabookmark_http_request_duration_seconds", map[string]string{"route": "/", "class": "4xx"}); !ok {
		t.Error("no latency sample for the catch-all 404")
	}
	// Lane reads by Site and outcome.
	h, ok = value(t, fams, "mangabookmark_lane_read_duration_seconds", map[string]string{"site": "mangadex", "outcome": "no_chapter"})
	if !ok || h.GetHistogram().GetSampleCount() != 1 || h.GetHistogram().GetSampleSum() != 1.5 {
		t.Errorf("lane read histogram: %v", h)
	}
	// The Go and process collectors.
	for _, fam := range []string{"go_goroutines", "go_memstats_alloc_bytes", "process_resident_memory_bytes"} {
		if fams[fam] == nil {
			t.Errorf("metrics lack %s", fam)
		}
	}
}

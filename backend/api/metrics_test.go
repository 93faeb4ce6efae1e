package api_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"mangabookmark/backend/api/admintest"
)

func TestMetricsExposeLanesAndRequests(t *testing.T) {
	t.Parallel()
	f := admintest.Start(t)
	// One 404 and one 401 before the scrape, so the counters have moved.
	for _, p := range []string{"/nope", "/api/me"} {
		resp, err := http.Get(f.URL() + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	resp, err := http.Get(f.URL() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	text := string(body)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("metrics: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	for _, want := range []string{
		`mangabookmark_up 1`,
		`mangabookmark_http_requests_total{class="4xx"} 2`,
		`mangabookmark_lane_state{site="comix",state="refusing"} 1`,
		`mangabookmark_lane_state{site="mangadex",state="paused"} 1`,
		`mangabookmark_lane_series{site="kagane"}`,
		`# TYPE mangabookmark_lane_behind_by_seconds gauge`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %q:\n%s", want, text)
		}
	}
}

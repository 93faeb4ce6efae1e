package cli_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/admin/admintest"
	"mangabookmark/client"
)

// `mbctl lanes` shows the pass in flight in LAST PASS while a Lane has no
// pass row yet (a long first pass), and "never" when it has neither.
func TestLanesShowsPassInFlight(t *testing.T) {
	t.Parallel()
	now := admintest.Now
	lanes := client.LanesResponse{Lanes: []client.Lane{
		{Site: "weebcentral", State: client.StateRunning, Series: 45, Due: 45, EffectiveGapS: 10,
			Pass: &client.LivePass{StartedAt: now.Add(-2 * time.Minute), Due: 45, Checked: 12}},
		{Site: "mangapill", State: client.StateIdle},
	}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(lanes)
	}))
	defer srv.Close()
	r := mbctl(t, map[string]string{"MBCTL_SERVER": srv.URL, "MBCTL_TOKEN": "t"}, t.TempDir(), "lanes")
	if r.code != 0 {
		t.Fatalf("mbctl lanes = %d: %s", r.code, r.stderr)
	}
	rows := strings.Split(r.stdout, "\n")
	if len(rows) < 3 || !strings.Contains(rows[1], "pass: 12/45 read, 2m") || !strings.Contains(rows[2], "never") {
		t.Errorf("mbctl lanes:\n%s", r.stdout)
	}
}

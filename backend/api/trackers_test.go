package api_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"mangabookmark/backend/api"
	"mangabookmark/backend/trackers"
	"mangabookmark/backend/trackers/anilist"
	"mangabookmark/backend/trackers/anilist/anilisttest"
	"mangabookmark/backend/trackersync"
	"mangabookmark/client"
)

// withTrackers gives the server a tracker service over the AniList
// stand-in al.
func withTrackers(t *testing.T, al *anilisttest.Server) func(*api.Config) {
	srv := httptest.NewServer(al)
	t.Cleanup(srv.Close)
	return func(c *api.Config) {
		if c.Metrics == nil {
			c.Metrics = api.NewMetrics()
		}
		cl, err := anilist.New(anilist.Config{Origin: srv.URL, Recorder: c.Metrics.TrackerRecorder()})
		if err != nil {
			t.Fatal(err)
		}
		sealer, err := trackers.NewSealer([]byte(testTokenKey))
		if err != nil {
			t.Fatal(err)
		}
		svc, err := trackersync.New(trackersync.Config{Store: c.Store, Tracker: cl, Sealer: sealer, Log: c.Log})
		if err != nil {
			t.Fatal(err)
		}
		set, err := trackersync.NewSet(svc)
		if err != nil {
			t.Fatal(err)
		}
		c.Trackers = set
	}
}

func TestTrackerRoutes(t *testing.T) {
	t.Parallel()
	al := anilisttest.New(anilisttest.Config{})
	al.AddUser("ann")
	al.AddToken("ann-secret-token-0123456789", "ann")
	e := newReaderEnv(t, withTrackers(t, al))
	tok := e.token("200000000000000030")

	code, body := e.do(tok, "GET", "/api/me/trackers", "")
	var list client.TrackersResponse
	if code != http.StatusOK || json.Unmarshal(body, &list) != nil || len(list.Trackers) != 1 || list.Trackers[0].State != "off" {
		t.Fatalf("GET before any setting: %d %s", code, body)
	}
	for _, c := range []struct {
		method, path, body string
		want               int
	}{
		{"PUT", "/api/me/trackers/anilist", `{"username":"nobody","pull":true,"push":false}`, http.StatusBadRequest},
		{"PUT", "/api/me/trackers/anilist", `{"username":"ann","pull":true,"push":true}`, http.StatusBadRequest},
		{"PUT", "/api/me/trackers/anilist", `{"username":"ann"}`, http.StatusBadRequest},
		{"PUT", "/api/me/trackers/anilist", `{"username":`, http.StatusBadRequest},
		{"POST", "/api/me/trackers/anilist/pull", ``, http.StatusBadRequest},
		{"POST", "/api/me/trackers/anilist/token", `{"token":"wrong-token"}`, http.StatusBadRequest},
		{"PUT", "/api/me/trackers/anilist", `{"username":"ann","pull":true,"push":false}`, http.StatusOK},
		{"POST", "/api/me/trackers/anilist/pull", ``, http.StatusAccepted},
		{"POST", "/api/me/trackers/anilist/token", `{"token":"ann-secret-token-0123456789"}`, http.StatusOK},
	} {
		if code, body := e.do(tok, c.method, c.path, c.body); code != c.want {
			t.Fatalf("%s %s %s: %d %s, want %d", c.method, c.path, c.body, code, body, c.want)
		}
	}
	code, body = e.do(tok, "GET", "/api/me/trackers", "")
	if code != http.StatusOK || json.Unmarshal(body, &list) != nil {
		t.Fatalf("GET: %d %s", code, body)
	}
	if got := list.Trackers[0]; got.Username != "ann" || !got.Pull || !got.Push || !got.Connected || got.State != "ok" {
		t.Fatalf("tracker = %+v", got)
	}
	if strings.Contains(string(body), "ann-secret") || strings.Contains(e.logs.String(), "ann-secret") {
		t.Fatal("the token was answered or logged")
	}
	if code, body := e.do(tok, "DELETE", "/api/me/trackers/anilist", ""); code != http.StatusNoContent {
		t.Fatalf("DELETE: %d %s", code, body)
	}
	if _, body := e.do(tok, "GET", "/api/me/trackers", ""); !strings.Contains(string(body), `"state":"off"`) {
		t.Fatalf("after DELETE: %s", body)
	}
	_, metrics := e.do(e.token(ownerID), "GET", "/metrics", "")
	for _, want := range []string{`mangabookmark_tracker_requests_total{kind="list",result="no_such_user",service="anilist"} 1`,
		`mangabookmark_tracker_requests_total{kind="viewer",result="token_refused",service="anilist"} 1`,
		`mangabookmark_tracker_requests_total{kind="save",result="ok",service="anilist"} 0`} {
		if !strings.Contains(string(metrics), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if code, _ := e.do("", "GET", "/api/me/trackers", ""); code != http.StatusUnauthorized {
		t.Fatalf("no token: %d, want 401", code)
	}
}

func TestTrackerRoutesWithoutService(t *testing.T) {
	t.Parallel()
	e := newReaderEnv(t)
	if code, _ := e.do(e.token("200000000000000031"), "GET", "/api/me/trackers", ""); code != http.StatusServiceUnavailable {
		t.Fatalf("no tracker service: %d, want 503", code)
	}
}

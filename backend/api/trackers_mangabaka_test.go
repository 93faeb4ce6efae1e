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
	"mangabookmark/backend/trackers/mangabaka"
	"mangabookmark/backend/trackers/mangabaka/mangabakatest"
	"mangabookmark/backend/trackersync"
	"mangabookmark/client"
)

// withBothTrackers gives the server AniList and MangaBaka over their
// stand-ins.
func withBothTrackers(t *testing.T, al *anilisttest.Server, mb *mangabakatest.Server) func(*api.Config) {
	alSrv, mbSrv := httptest.NewServer(al), httptest.NewServer(mb)
	t.Cleanup(alSrv.Close)
	t.Cleanup(mbSrv.Close)
	return func(c *api.Config) {
		if c.Metrics == nil {
			c.Metrics = api.NewMetrics()
		}
		sealer, err := trackers.NewSealer([]byte(testTokenKey))
		if err != nil {
			t.Fatal(err)
		}
		alc, err := anilist.New(anilist.Config{Origin: alSrv.URL, Recorder: c.Metrics.TrackerRecorder()})
		if err != nil {
			t.Fatal(err)
		}
		mbc, err := mangabaka.New(mangabaka.Config{Origin: mbSrv.URL, Recorder: c.Metrics.TrackerRecorder()})
		if err != nil {
			t.Fatal(err)
		}
		als, err := trackersync.New(trackersync.Config{Store: c.Store, Tracker: alc, Sealer: sealer, Log: c.Log})
		if err != nil {
			t.Fatal(err)
		}
		mbs, err := trackersync.New(trackersync.Config{Store: c.Store, Tracker: mbc, Sealer: sealer, Log: c.Log})
		if err != nil {
			t.Fatal(err)
		}
		set, err := trackersync.NewSet(als, mbs)
		if err != nil {
			t.Fatal(err)
		}
		c.Trackers = set
	}
}

func TestMangaBakaTrackerRoutes(t *testing.T) {
	t.Parallel()
	const pat = "mb-ann-secret-0123456789"
	mb := mangabakatest.New(mangabakatest.Config{})
	mb.AddUser(pat, "ann-baka")
	e := newReaderEnv(t, withBothTrackers(t, anilisttest.New(anilisttest.Config{}), mb))
	tok := e.token("200000000000000032")

	code, body := e.do(tok, "GET", "/api/me/trackers", "")
	var list client.TrackersResponse
	if code != http.StatusOK || json.Unmarshal(body, &list) != nil || len(list.Trackers) != 2 ||
		list.Trackers[0].Service != "anilist" || list.Trackers[1].Service != "mangabaka" || list.Trackers[1].State != "off" {
		t.Fatalf("GET before any setting: %d %s", code, body)
	}
	for _, c := range []struct {
		method, path, body string
		want               int
	}{
		{"PUT", "/api/me/trackers/mangabaka", `{"pull":true,"push":true}`, http.StatusBadRequest}, // no token yet
		{"PUT", "/api/me/trackers/mangabaka", `{"pull":true}`, http.StatusBadRequest},
		{"PUT", "/api/me/trackers/mangabaka", `{"pull":"yes","push":true}`, http.StatusBadRequest},
		{"POST", "/api/me/trackers/mangabaka/pull", ``, http.StatusBadRequest},
		{"POST", "/api/me/trackers/mangabaka/token", `{"token":"mb-revoked-or-wrong"}`, http.StatusBadRequest},
		{"POST", "/api/me/trackers/mangabaka/token", `{"token":"not-a-pat"}`, http.StatusBadRequest},
		{"POST", "/api/me/trackers/mangabaka/token", `{"token":["mb-x"]}`, http.StatusBadRequest},
		{"POST", "/api/me/trackers/mangabaka/token", `{"token":"` + pat + `"}`, http.StatusOK},
		{"PUT", "/api/me/trackers/mangabaka", `{"pull":false,"push":true}`, http.StatusOK},
		{"POST", "/api/me/trackers/mangabaka/pull", ``, http.StatusBadRequest}, // pull is off
		{"PUT", "/api/me/trackers/mangabaka", `{"pull":true,"push":true}`, http.StatusOK},
		{"POST", "/api/me/trackers/mangabaka/pull", ``, http.StatusAccepted},
	} {
		if code, body := e.do(tok, c.method, c.path, c.body); code != c.want {
			t.Fatalf("%s %s %s: %d %s, want %d", c.method, c.path, c.body, code, body, c.want)
		}
	}
	code, body = e.do(tok, "GET", "/api/me/trackers", "")
	if code != http.StatusOK || json.Unmarshal(body, &list) != nil {
		t.Fatalf("GET: %d %s", code, body)
	}
	if got := list.Trackers[1]; got.Username != "ann-baka" || !got.Pull || !got.Push || !got.Connected || got.State != "ok" {
		t.Fatalf("mangabaka = %+v", got)
	}
	if list.Trackers[0].State != "off" {
		t.Fatalf("anilist moved with mangabaka: %+v", list.Trackers[0])
	}
	if strings.Contains(string(body), "ann-secret") || strings.Contains(e.logs.String(), "ann-secret") {
		t.Fatal("the token was answered or logged")
	}
	if code, body := e.do(tok, "DELETE", "/api/me/trackers/mangabaka", ""); code != http.StatusNoContent {
		t.Fatalf("DELETE: %d %s", code, body)
	}
	if _, body := e.do(tok, "GET", "/api/me/trackers", ""); strings.Count(string(body), `"state":"off"`) != 2 {
		t.Fatalf("after DELETE: %s", body)
	}
	_, metrics := e.do(e.token(ownerID), "GET", "/metrics", "")
	for _, want := range []string{`mangabookmark_tracker_requests_total{kind="viewer",result="token_refused",service="mangabaka"} 1`,
		`mangabookmark_tracker_requests_total{kind="viewer",result="ok",service="mangabaka"} 1`} {
		if !strings.Contains(string(metrics), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

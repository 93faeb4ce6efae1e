package sitesim

import (
	"bytes"
	"context"
	"image"
	_ "image/jpeg"
	_ "image/png"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// pageURLs lists the documents an adapter fetches for a Series, as paths.
func pagePaths(site, id string) []string {
	switch site {
	case MangaDex:
		return []string{"/manga/" + id, "/manga/" + id + "/feed"}
	case WeebCentral:
		return []string{"/series/" + id, "/series/" + id + "/full-chapter-list"}
	case MangaPill:
		return []string{"/manga/" + id}
	case Kagane:
		return []string{"/series/" + id, "/api/v2/series/" + id}
	case Comix:
		return []string{"/title/" + id}
	case Natomanga:
		return []string{"/manga/" + id, "/api/manga/" + id + "/chapters"}
	}
	return nil
}

func get(t testing.TB, h http.Handler, path string, cookie *http.Cookie) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "http://sim.test"+path, nil)
	if cookie != nil {
		req.AddCookie(cookie)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// The simulator serves 10,000 Series on every Site from one process, each
// page carrying the Series' title and latest number, and nothing past them.
func TestServesTenThousandSeriesPerSite(t *testing.T) {
	t.Parallel()
	const n = 10000
	sim := mustNew(t, Config{SeriesPerSite: n})
	// Every id of the range round-trips (TestSeriesIDsRoundTrip); pages are
	// rendered for a stride through the whole range to keep the test fast.
	step := 7
	if testing.Short() {
		step = 37
	}
	for _, site := range SiteNames {
		h := sim.Handler(site)
		for i := 0; i < n; i += step {
			id := seriesID(site, i)
			for _, p := range pagePaths(site, id) {
				rec := get(t, h, p, nil)
				if rec.Code != http.StatusOK {
					t.Fatalf("%s %s: %d", site, p, rec.Code)
				}
			}
			if i%1000 == 0 {
				body := get(t, h, pagePaths(site, id)[len(pagePaths(site, id))-1], nil).Body.String()
				if !strings.Contains(body, sim.Latest(site, id)) {
					t.Errorf("%s %s: latest %s not on the page", site, id, sim.Latest(site, id))
				}
			}
		}
		last := seriesID(site, n)
		// Past the range is no Series: a 404, or on WeebCentral the 307 to
		// its /404 page.
		want := http.StatusNotFound
		if site == WeebCentral {
			want = http.StatusTemporaryRedirect
		}
		if rec := get(t, h, pagePaths(site, last)[0], nil); rec.Code != want {
			t.Errorf("%s: Series %d answered %d", site, n, rec.Code)
		}
		if got := sim.Hits(site); got < int64(n/step) {
			t.Errorf("%s: %d hits", site, got)
		}
	}
}

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func TestNewChapterEveryInterval(t *testing.T) {
	t.Parallel()
	clk := &clock{t: time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)}
	sim := mustNew(t, Config{SeriesPerSite: 10, Now: clk.Now})
	id := sim.SeriesID(MangaPill, 0)
	start, _ := strconv.Atoi(sim.Latest(MangaPill, id))
	sim.SetSeries(MangaPill, id, Behavior{NewEvery: 30 * time.Minute})
	clk.Add(29 * time.Minute)
	if got := sim.Latest(MangaPill, id); got != strconv.Itoa(start) {
		t.Fatalf("after 29m: %s, want %d", got, start)
	}
	clk.Add(2 * time.Hour)
	want := strconv.Itoa(start + 4)
	if got := sim.Latest(MangaPill, id); got != want {
		t.Fatalf("after 2h29m: %s, want %s", got, want)
	}
	if body := get(t, sim.Handler(MangaPill), "/manga/"+id, nil).Body.String(); !strings.Contains(body, ">Chapter "+want+"<") {
		t.Errorf("page lacks Chapter %s", want)
	}
	other := sim.SeriesID(MangaPill, 1)
	if before := sim.Latest(MangaPill, other); before != sim.Latest(MangaPill, other) || sim.behavior(MangaPill, other).NewEvery != 0 {
		t.Error("a Series without behaviour moved")
	}
}

func TestChallenges(t *testing.T) {
	t.Parallel()
	sim := mustNew(t, Config{SeriesPerSite: 5})
	h := sim.Handler(Comix)
	id := sim.SeriesID(Comix, 1)
	sim.SetSeries(Comix, id, Behavior{Mode: JSChallenge})
	rec := get(t, h, "/title/"+id, nil)
	if rec.Code != 403 || rec.Header().Get("Cf-Mitigated") != "challenge" || !strings.Contains(rec.Body.String(), "Just a moment") ||
		!strings.Contains(rec.Body.String(), "document.cookie") {
		t.Fatalf("interstitial: %d %v", rec.Code, rec.Header())
	}
	pass := &http.Cookie{Name: ClearanceCookie, Value: "passed"}
	if rec := get(t, h, "/title/"+id, pass); rec.Code != 200 || !strings.Contains(rec.Body.String(), `id="initial-data"`) {
		t.Fatalf("with clearance: %d", rec.Code)
	}
	if rec := get(t, h, "/title/"+id, &http.Cookie{Name: ClearanceCookie, Value: "forged"}); rec.Code != 403 {
		t.Fatalf("wrong clearance: %d", rec.Code)
	}
	sim.SetSeries(Comix, id, Behavior{Mode: JSChallengeStuck})
	if rec := get(t, h, "/title/"+id, pass); rec.Code != 403 || strings.Contains(rec.Body.String(), "document.cookie") {
		t.Fatalf("stuck: %d", rec.Code)
	}
	sim.SetSite(Comix, Behavior{Mode: Challenge})
	sim.ClearSeries(Comix, id)
	if rec := get(t, h, "/title/"+id, pass); rec.Code != 403 || rec.Header().Get("Cf-Mitigated") != "challenge" {
		t.Fatalf("site challenge: %d", rec.Code)
	}
}

func TestCoversAreImages(t *testing.T) {
	t.Parallel()
	sim := mustNew(t, Config{SeriesPerSite: 5})
	for site, path := range map[string]string{MangaDex: "/covers/x/y.jpg.512.jpg", WeebCentral: "/cover/normal/X.webp",
		MangaPill: "/covers/1.jpeg", Kagane: "/api/v2/image/abc", Comix: "/poster/baaaa-large.jpg", Natomanga: "/cover/s.jpg"} {
		rec := get(t, sim.Handler(site), path, nil)
		_, format, err := image.Decode(bytes.NewReader(rec.Body.Bytes()))
		if rec.Code != 200 || err != nil || !strings.Contains(rec.Header().Get("Content-Type"), format) {
			t.Errorf("%s %s: %d %v %s", site, path, rec.Code, err, rec.Header().Get("Content-Type"))
		}
	}
}

// StartOn takes consecutive ports; Close ends a hanging request.
func TestStartOnAndClose(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	if port > 65000 {
		t.Skip("free port too high for six consecutive ones")
	}
	sim := mustNew(t, Config{SeriesPerSite: 3})
	if err := sim.StartOn(ln.Addr().String()); err != nil {
		t.Skipf("ports taken meanwhile: %v", err)
	}
	for i, name := range SiteNames {
		if want := "http://127.0.0.1:" + strconv.Itoa(port+i); sim.Origin(name) != want {
			t.Errorf("%s at %s, want %s", name, sim.Origin(name), want)
		}
	}
	if !strings.HasPrefix(sim.OriginsValue(), "kagane=http://127.0.0.1:"+strconv.Itoa(port)+",comix=") {
		t.Errorf("origins value %s", sim.OriginsValue())
	}
	id := sim.SeriesID(MangaPill, 0)
	sim.SetSeries(MangaPill, id, Behavior{Mode: Hang})
	done := make(chan error, 1)
	go func() {
		resp, err := http.Get(sim.SeriesURL(MangaPill, id))
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		done <- err
	}()
	for sim.Hits(MangaPill) == 0 {
		time.Sleep(time.Millisecond)
	}
	sim.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	select {
	case err := <-done:
		t.Logf("hanging request ended with Close: %v", err)
	case <-ctx.Done():
		t.Fatal("hanging request outlived Close")
	}
}

func TestModeNames(t *testing.T) {
	t.Parallel()
	for _, m := range Modes() {
		if back, ok := ParseMode(m.String()); !ok || back != m {
			t.Errorf("%d: %q parses to %d, %v", m, m.String(), back, ok)
		}
	}
	if _, ok := ParseMode("nope"); ok {
		t.Error("unknown mode parsed")
	}
}

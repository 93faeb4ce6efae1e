package lanes_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"mangabookmark/backend/lanes"
	"mangabookmark/backend/store"
)

var pngBytes = []byte("\x89PNG\r\n\x1a\n fake image body")

func coverServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("/cover.png", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(pngBytes)
	})
	mux.HandleFunc("/big.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(bytes.Repeat([]byte{1}, 3<<20))
	})
	mux.HandleFunc("/evil.svg", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/svg+xml")
		_, _ = w.Write([]byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`))
	})
	mux.HandleFunc("/page.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<html></html>"))
	})
	mux.HandleFunc("/lie.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png") // the header lies: the bytes are a page
		_, _ = w.Write([]byte("<html><script>alert(1)</script></html>"))
	})
	mux.HandleFunc("/octet", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream") // the bytes are a PNG
		_, _ = w.Write(pngBytes)
	})
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://localhost:1/cover.png", http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, &hits
}

// Cover heals run in the background, store only small raster images, and
// reach a private address only where the Site's SITE_ORIGINS override points.
func TestCoverHeals(t *testing.T) {
	t.Parallel()
	srv, hits := coverServer(t)
	// One cover worker per Series: a heal finding every worker busy is
	// deferred to the Series' next read (by design), and on a loaded
	// machine the refused fetches can still hold the default four workers
	// when the eighth Series is read (cover 8 went unstored once).
	e := newEnv(t, func(c *lanes.Config) { c.CoverWorkers = 9 }, siteSpec{name: "over"}, siteSpec{name: "public"})
	e.sites["over"].Origin, e.sites["over"].Overridden = srv.URL, true
	ctx := context.Background()
	e.seed(t, "over", 8, t0.Add(-time.Hour))
	e.seed(t, "public", 1, t0.Add(-time.Hour))
	for id, path := range map[string]string{"1": "/cover.png", "2": "/big.png", "3": "/evil.svg", "4": "/page.html", "5": "/away", "6": "/cover.png", "7": "/lie.png", "8": "/octet"} {
		e.ad["over"].set(id, okResult("1", srv.URL+path))
	}
	e.ad["over"].set("6", okResult("1", "javascript:alert(1)"))
	// Same loopback server, but this Site is not overridden: refused at dial.
	e.ad["public"].set("1", okResult("1", srv.URL+"/cover.png"))

	if res, _ := e.runPass(t, "over"); res.OK != 8 {
		t.Fatalf("pass %+v", res)
	}
	if res, _ := e.runPass(t, "public"); res.OK != 1 {
		t.Fatalf("pass %+v", res)
	}
	e.m.WaitCovers()
	c, err := e.st.GetCover(ctx, "over", "1")
	if err != nil || !bytes.Equal(c.Body, pngBytes) || c.ContentType != "image/png" || c.SourceURL != srv.URL+"/cover.png" {
		t.Fatalf("cover 1: %+v %v", c, err)
	}
	// Stored by what the bytes are, not by the header.
	if c, err := e.st.GetCover(ctx, "over", "8"); err != nil || c.ContentType != "image/png" {
		t.Fatalf("cover 8 (a PNG sent as octet-stream): %+v %v", c.ContentType, err)
	}
	for _, id := range []string{"2", "3", "4", "5", "6", "7"} {
		if _, err := e.st.GetCover(ctx, "over", id); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("cover %s stored (%v); it should have been refused", id, err)
		}
	}
	if _, err := e.st.GetCover(ctx, "public", "1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a loopback cover was stored for a Site with no override (%v)", err)
	}
	if hits.Load() != 1 {
		t.Fatalf("cover server hit %d times, want 1 (the public Site must never reach it)", hits.Load())
	}
	// A stored cover with the same URL is not fetched again.
	e.clock.Advance(2 * time.Hour)
	if res, _ := e.runPass(t, "over"); res.OK != 8 {
		t.Fatalf("second pass %+v", res)
	}
	e.m.WaitCovers()
	if hits.Load() != 1 {
		t.Fatalf("an unchanged stored cover was fetched again (%d hits)", hits.Load())
	}
}

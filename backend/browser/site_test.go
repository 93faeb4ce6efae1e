package browser_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// A local stand-in for a Cloudflare-fronted Site. Pages under /cf/ need the
// clearance cookie, which only the interstitial's script sets: a client
// that runs no JavaScript never gets past it.
const (
	clearanceCookie = "cf_clearance"
	seriesHTML      = `<!DOCTYPE html><html><head><title>Series 7</title></head>
<body><h1>Series 7</h1><a class="latest" href="/cf/series/7/chapter-12">Chapter 12</a></body></html>`
	chaptersJSON = `{"success":true,"data":{"chapters":[{"chapter_num":12,"chapter_name":"Chapter 12"}]}}`
)

// interstitial is the challenge page: title, Cloudflare-like markers, and a
// script that earns the cookie and reloads (unless it never clears).
func interstitial(clears bool) string {
	script := ""
	if clears {
		script = `setTimeout(function () {
  document.cookie = "` + clearanceCookie + `=ok; path=/";
  location.reload();
}, 30);`
	}
	return `<!DOCTYPE html><html><head><title>Just a moment...</title></head>
<body><div id="challenge-running">Checking your browser</div>
<script>window._cf_chl_opt = {cType: "managed"};` + script + `</script></body></html>`
}

type site struct {
	*httptest.Server

	mu       sync.Mutex
	inflight int
	maxIn    int
	hits     map[string]int
	agents   []string      // User-Agent of each /open/series/ request
	hold     chan struct{} // closed to release /hang
	entered  chan struct{} // receives when /hang is reached
	holdSlow func()        // how long /slow keeps a request open
}

func newSite(t testing.TB) *site {
	s := &site{hits: map[string]int{}, hold: make(chan struct{}), entered: make(chan struct{}, 8)}
	mux := http.NewServeMux()
	mux.HandleFunc("/cf/", s.challenged)
	mux.HandleFunc("/never/", func(w http.ResponseWriter, r *http.Request) {
		challenge(w, false)
	})
	mux.HandleFunc("/mitigated/", func(w http.ResponseWriter, r *http.Request) {
		// Only the header says challenge; the page shows none of the signs.
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cf-Mitigated", "challenge")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, `<!DOCTYPE html><html><head><title>Series 7</title></head><body>Please wait</body></html>`)
	})
	mux.HandleFunc("/open/series/", func(w http.ResponseWriter, r *http.Request) {
		s.count(r)
		s.mu.Lock()
		s.agents = append(s.agents, r.UserAgent())
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, seriesHTML)
	})
	mux.HandleFunc("/open/api/", func(w http.ResponseWriter, r *http.Request) {
		s.count(r)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, chaptersJSON)
	})
	mux.HandleFunc("/gone/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `<!DOCTYPE html><html><head><title>Not found</title></head><body>No such series</body></html>`)
	})
	mux.HandleFunc("/big/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<!DOCTYPE html><html><body><p>"+strings.Repeat("x", 64<<10)+"</p></body></html>")
	})
	mux.HandleFunc("/hang/", func(w http.ResponseWriter, r *http.Request) {
		s.entered <- struct{}{}
		select {
		case <-s.hold:
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/slow/", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.inflight++
		s.maxIn = max(s.maxIn, s.inflight)
		s.mu.Unlock()
		if s.holdSlow != nil {
			s.holdSlow()
		}
		s.mu.Lock()
		s.inflight--
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"path":%q}`, r.URL.Path)
	})
	s.Server = httptest.NewServer(mux)
	t.Cleanup(func() {
		s.release()
		s.Close()
	})
	return s
}

func (s *site) count(r *http.Request) {
	s.mu.Lock()
	s.hits[r.URL.Path]++
	s.mu.Unlock()
}

func (s *site) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.hold:
	default:
		close(s.hold)
	}
}

// challenged serves /cf/series/... (HTML) and /cf/api/... (JSON) behind the
// challenge, answering without the cookie the way Cloudflare does.
func (s *site) challenged(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(clearanceCookie); err != nil || c.Value != "ok" {
		challenge(w, true)
		return
	}
	s.count(r)
	if strings.HasPrefix(r.URL.Path, "/cf/api/") {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, chaptersJSON)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprint(w, seriesHTML)
}

func challenge(w http.ResponseWriter, clears bool) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cf-Mitigated", "challenge")
	w.Header().Set("Server", "cloudflare")
	w.WriteHeader(http.StatusForbidden)
	fmt.Fprint(w, interstitial(clears))
}

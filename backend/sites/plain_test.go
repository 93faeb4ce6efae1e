package sites

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

func host(t *testing.T, srv *httptest.Server) string {
	t.Helper()
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}

func TestPlainRoute(t *testing.T) {
	t.Parallel()
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("other"))
	}))
	defer other.Close()
	mirror := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("mirror"))
	}))
	defer mirror.Close()
	hang := make(chan struct{})
	defer close(hang)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/echo":
			_, _ = w.Write([]byte(r.Header.Get("User-Agent") + "|" + r.Header.Get("Referer") + "|" + r.Header.Get("Accept")))
		case "/data":
			_, _ = w.Write([]byte("data"))
		case "/here":
			http.Redirect(w, r, "/echo", http.StatusFound)
		case "/away":
			http.Redirect(w, r, other.URL+"/x", http.StatusFound)
		case "/mirror":
			http.Redirect(w, r, mirror.URL+"/x", http.StatusMovedPermanently)
		case "/js":
			http.Redirect(w, r, "javascript:alert(1)", http.StatusFound)
		case "/loop":
			n, _ := strconv.Atoi(r.URL.Query().Get("n"))
			http.Redirect(w, r, "/loop?n="+strconv.Itoa(n+1), http.StatusFound)
		case "/five":
			n, _ := strconv.Atoi(r.URL.Query().Get("n"))
			if n < 5 {
				http.Redirect(w, r, "/five?n="+strconv.Itoa(n+1), http.StatusFound)
				return
			}
			_, _ = w.Write([]byte("done"))
		case "/limit":
			w.(http.Flusher).Flush() // chunked: no Content-Length to trust
			_, _ = w.Write([]byte(strings.Repeat("x", 100)))
		case "/over":
			w.(http.Flusher).Flush()
			_, _ = w.Write([]byte(strings.Repeat("x", 101)))
		case "/declared":
			w.Header().Set("Content-Length", "1000000")
			_, _ = w.Write([]byte("x"))
		case "/hang":
			select {
			case <-r.Context().Done():
			case <-hang:
			}
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	site := &Site{Name: "t", Hosts: []string{host(t, srv), host(t, mirror)}}
	p := mustPlain(t, PlainOptions{BodyLimit: 100, Version: "1.2.3"})
	get := func(path string, mod func(*Request)) (*Response, error) {
		req := Request{Site: site, Page: srv.URL + path}
		if mod != nil {
			mod(&req)
		}
		return p.Fetch(context.Background(), req)
	}

	r, err := get("/echo", func(q *Request) {
		q.Header = http.Header{"Referer": {"https://ref.example/"}}
		q.Accept = "text/html"
	})
	if err != nil || string(r.Body) != "mangabookmark/1.2.3 (+self-hosted manga bookmark poller)|https://ref.example/|text/html" {
		t.Errorf("headers: %v %q (the User-Agent names the build's version)", err, r.Body)
	}
	if got := UserAgent(""); !strings.HasPrefix(got, "mangabookmark/dev ") {
		t.Errorf("user agent without a version %q, want mangabookmark/dev", got)
	}
	if r, err := get("/", func(q *Request) { q.Data = srv.URL + "/data" }); err != nil || string(r.Body) != "data" {
		t.Errorf("data: %v", err)
	}
	if r, err := get("/here", nil); err != nil || r.FinalURL.Path != "/echo" {
		t.Errorf("same-host redirect: %v", err)
	}
	if r, err := get("/mirror", nil); err != nil || string(r.Body) != "mirror" {
		t.Errorf("redirect to a Site host: %v", err)
	}
	if r, err := get("/five", nil); err != nil || string(r.Body) != "done" {
		t.Errorf("five redirects: %v", err)
	}
	if r, err := get("/limit", nil); err != nil || len(r.Body) != 100 {
		t.Errorf("body at the limit: %v", err)
	}
	if r, err := get("/missing", nil); err != nil || r.Status != 404 {
		t.Errorf("404 is an answer: %v", err)
	}
	for path, want := range map[string]error{
		"/away": ErrOffSite, "/js": ErrOffSite, "/loop": ErrTooManyRedirects,
		"/over": ErrTooLarge, "/declared": ErrTooLarge,
	} {
		if _, err := get(path, nil); !errors.Is(err, want) || ClassifyError(err) != Unfetchable {
			t.Errorf("%s: %v, want %v", path, err, want)
		}
	}
	short := mustPlain(t, PlainOptions{TotalTimeout: 200 * time.Millisecond})
	if _, err := short.Fetch(context.Background(), Request{Site: site, Page: srv.URL + "/hang"}); err == nil || ClassifyError(err) != Errors || !IsTimeout(err) {
		t.Errorf("hang: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/"
	ln.Close()
	if _, err := p.Fetch(context.Background(), Request{Site: site, Page: closed}); err == nil || ClassifyError(err) != Errors {
		t.Errorf("refused connection: %v", err)
	}
}

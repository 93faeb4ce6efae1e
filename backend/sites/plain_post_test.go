package sites

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestPlainPost: a request with a method and body is sent as given (the
// same request Kagane's listing makes from inside its page); one without
// stays a GET with no body.
func TestPlainPost(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		fmt.Fprintf(w, "%s|%s|%s", r.Method, r.Header.Get("Content-Type"), b)
	}))
	defer srv.Close()
	site := &Site{Name: "t", Hosts: []string{host(t, srv)}}
	p := mustPlain(t, PlainOptions{})
	r, err := p.Fetch(context.Background(), Request{Site: site, Page: srv.URL + "/", Data: srv.URL + "/search",
		Method: http.MethodPost, Body: []byte(`{"a":1}`), ContentType: "application/json"})
	if err != nil || string(r.Body) != `POST|application/json|{"a":1}` {
		t.Fatalf("post: %v %q", err, r.Body)
	}
	r, err = p.Fetch(context.Background(), Request{Site: site, Page: srv.URL + "/"})
	if err != nil || string(r.Body) != "GET||" {
		t.Fatalf("get: %v %q", err, r.Body)
	}
}

package sites

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"testing"
)

func resp(status int, hdr map[string]string, body string, final string) *Response {
	h := http.Header{}
	for k, v := range hdr {
		h.Set(k, v)
	}
	u, _ := url.Parse(final)
	return &Response{Status: status, Header: h, Body: []byte(body), FinalURL: u}
}

func TestClassifyResponse(t *testing.T) {
	t.Parallel()
	site := &Site{Name: "x", Hosts: []string{"site.example", "127.0.0.1:8081"}}
	on := "https://site.example/p"
	cf := map[string]string{"Cf-Mitigated": "challenge"}
	cases := []struct {
		name string
		r    *Response
		want Outcome
	}{
		{"200", resp(200, nil, "<html>", on), OK},
		{"204", resp(204, nil, "", on), OK},
		{"www host", resp(200, nil, "", "https://www.site.example/p"), OK},
		{"subdomain", resp(200, nil, "", "https://api.site.example/p"), OK},
		{"override host", resp(200, nil, "", "http://127.0.0.1:8081/p"), OK},
		{"404", resp(404, nil, "", on), NotFound},
		{"410", resp(410, nil, "", on), NotFound},
		{"400", resp(400, nil, "", on), Unfetchable},
		{"401", resp(401, nil, "", on), Unfetchable},
		{"403 plain", resp(403, nil, "Forbidden", on), Unfetchable},
		{"429 plain", resp(429, nil, "slow down", on), Unfetchable},
		{"304", resp(304, nil, "", on), Unfetchable},
		{"500", resp(500, nil, "", on), Errors},
		{"502", resp(502, nil, "", on), Errors},
		{"503 plain", resp(503, nil, "maintenance", on), Errors},
		{"off site", resp(200, nil, "", "https://elsewhere.example/"), Unfetchable},
		{"other port", resp(200, nil, "", "http://127.0.0.1:8082/"), Unfetchable},
		{"cf header 403", resp(403, cf, "", on), Refused},
		{"cf header 200", resp(200, cf, "", on), Refused},
		{"cf header 429", resp(429, map[string]string{"cf-mitigated": " Challenge "}, "", on), Refused},
		{"cf header off site", resp(403, cf, "", "https://elsewhere.example/"), Refused},
		{"403 just a moment", resp(403, nil, "<title>Just a moment...</title>", on), Refused},
		{"503 challenges host", resp(503, nil, `<script src="https://challenges.cloudflare.com/x">`, on), Refused},
		{"429 __cf_chl", resp(429, nil, `<form action="/?__cf_chl_f_tk=1">`, on), Refused},
		{"403 cf_chl_opt", resp(403, nil, `window._cf_chl_opt={}`, on), Refused},
		{"403 error title", resp(403, nil, `<h2 id="challenge-error-title">`, on), Refused},
		{"200 with marker", resp(200, nil, "Just a moment", on), OK},
		{"404 with marker", resp(404, nil, "Just a moment", on), NotFound},
		{"waf page", resp(200, nil, "<title>Security check</title>", "https://site.example/@waf/challenge?return=%2Fp"), Refused},
		{"waf page www", resp(200, nil, "", "https://www.site.example/@waf/anything"), Refused},
		{"waf off site", resp(200, nil, "", "https://elsewhere.example/@waf/challenge"), Unfetchable},
		{"waf word in a path", resp(200, nil, "", "https://site.example/title/x-waf/@waf"), OK},
		{"security check title alone", resp(200, nil, "<title>Security check</title>", on), OK},
	}
	for _, c := range cases {
		got, err := ClassifyResponse(site, c.r)
		if got != c.want {
			t.Errorf("%s: %s (%v), want %s", c.name, got, err, c.want)
		}
		if (got == OK) != (err == nil) {
			t.Errorf("%s: outcome %s with error %v", c.name, got, err)
		}
		if got == Refused && !errors.Is(err, ErrChallenge) {
			t.Errorf("%s: refused without ErrChallenge: %v", c.name, err)
		}
	}
}

func TestClassifyError(t *testing.T) {
	t.Parallel()
	wrap := func(err error) error { return fmt.Errorf("route: %w", &url.Error{Op: "Get", URL: "u", Err: err}) }
	cases := []struct {
		err  error
		want Outcome
	}{
		{nil, OK},
		{ErrUnreachable, Unreachable},
		{fmt.Errorf("browser: %w", ErrUnreachable), Unreachable},
		{fmt.Errorf("browser: %w", ErrChallenge), Refused},
		{wrap(ErrTooLarge), Unfetchable},
		{wrap(ErrOffSite), Unfetchable},
		{wrap(ErrTooManyRedirects), Unfetchable},
		{ErrWrongType, Unfetchable},
		{ErrUnusable, Unfetchable},
		{fmt.Errorf("browser: read: %w", ErrPageCrashed), Unfetchable},
		{wrap(context.DeadlineExceeded), Errors},
		{context.Canceled, Errors},
		{wrap(&net.OpError{Op: "dial", Err: errors.New("connection refused")}), Errors},
		{errors.New("anything else"), Errors},
	}
	for _, c := range cases {
		if got := ClassifyError(c.err); got != c.want {
			t.Errorf("%v: %s, want %s", c.err, got, c.want)
		}
	}
}

func TestCheckType(t *testing.T) {
	t.Parallel()
	cases := []struct {
		ct   string
		want Kind
		ok   bool
	}{
		{"application/json", JSON, true}, {"application/json; charset=utf-8", JSON, true},
		{"application/vnd.api+json", JSON, true}, {"text/html", JSON, false}, {"", JSON, true},
		{"text/html; charset=UTF-8", HTML, true}, {"application/json", HTML, false},
		{"image/png", HTML, false}, {"application/octet-stream", AnyKind, true}, {";;;", HTML, false},
	}
	for _, c := range cases {
		err := CheckType(resp(200, map[string]string{"Content-Type": c.ct}, "", ""), c.want)
		if (err == nil) != c.ok {
			t.Errorf("%q as %d: %v", c.ct, c.want, err)
		}
	}
}

func TestOutcomeWords(t *testing.T) {
	t.Parallel()
	writes := map[Outcome]bool{NotFound: true, NoChapter: true, Unfetchable: true, Errors: true}
	for _, o := range Outcomes {
		if !o.Valid() || o.WritesFailure() != writes[o] {
			t.Errorf("%s: valid %v writes %v", o, o.Valid(), o.WritesFailure())
		}
	}
	if Outcome("nope").Valid() {
		t.Error("unknown word valid")
	}
}

func TestResolve(t *testing.T) {
	t.Parallel()
	base := "https://site.example"
	for ref, want := range map[string]string{
		"/a/b": "https://site.example/a/b", "https://cdn.example/x.jpg": "https://cdn.example/x.jpg",
		"//cdn.example/y": "https://cdn.example/y", "javascript:alert(1)": "", "data:image/png;base64,AA": "",
		"": "", "https://u:p@x.example/": "", "mailto:a@b": "",
	} {
		if got := Resolve(base, ref); got != want {
			t.Errorf("Resolve(%q) = %q, want %q", ref, got, want)
		}
	}
}

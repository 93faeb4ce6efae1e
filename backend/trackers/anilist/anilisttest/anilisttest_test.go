package anilisttest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"mangabookmark/backend/trackers"
)

// post sends body and returns the answer's status and JSON.
func post(t *testing.T, srv *httptest.Server, path, contentType, body, token string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&v)
	return resp.StatusCode, v
}

// TestAuthorizeRefusesAnotherClient: the stand-in's authorize page, like
// AniList's, answers only the registered client and redirect.
func TestAuthorizeRefusesAnotherClient(t *testing.T) {
	t.Parallel()
	s := New(Config{ClientID: "7", ClientSecret: "s", RedirectURL: "http://app/cb", ApproveAs: "r"})
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	for name, q := range map[string]url.Values{
		"another client":   {"client_id": {"8"}, "redirect_uri": {"http://app/cb"}, "response_type": {"code"}},
		"another redirect": {"client_id": {"7"}, "redirect_uri": {"http://evil/cb"}, "response_type": {"code"}},
		"implicit":         {"client_id": {"7"}, "redirect_uri": {"http://app/cb"}, "response_type": {"token"}},
	} {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+"/api/v2/oauth/authorize?"+q.Encode(), nil)
		resp, err := srv.Client().Transport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %d", name, resp.StatusCode)
		}
	}
}

// TestTokenEndpointForms: the code grant is read from a form body as from
// JSON, and a code trades once.
func TestTokenEndpointForms(t *testing.T) {
	t.Parallel()
	s := New(Config{ClientID: "7", ClientSecret: "s", RedirectURL: "http://app/cb"})
	s.AddCode("c1", "tok-1")
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	form := url.Values{"grant_type": {"authorization_code"}, "client_id": {"7"}, "client_secret": {"s"},
		"redirect_uri": {"http://app/cb"}, "code": {"c1"}}.Encode()
	status, v := post(t, srv, "/api/v2/oauth/token", "application/x-www-form-urlencoded", form, "")
	if status != http.StatusOK || v["access_token"] != "tok-1" {
		t.Fatalf("form grant: %d %v", status, v)
	}
	status, v = post(t, srv, "/api/v2/oauth/token", "application/x-www-form-urlencoded", form, "")
	if status != http.StatusBadRequest || v["error"] != "invalid_grant" {
		t.Fatalf("second use: %d %v", status, v)
	}
	if s.Requests(trackers.KindToken) != 2 {
		t.Fatalf("counted %d", s.Requests(trackers.KindToken))
	}
}

// TestSaveValidates: a write with an unknown status or a negative count
// is AniList's 400 validation error and changes nothing.
func TestSaveValidates(t *testing.T) {
	t.Parallel()
	s := New(Config{})
	s.AddUser("r", trackers.Entry{MediaID: "5", Progress: 2, Status: trackers.StatusCurrent})
	s.AddToken("tok", "r")
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	for _, vars := range []string{`{"mediaId":5,"progress":-1,"status":"CURRENT"}`, `{"mediaId":5,"progress":9,"status":"READING"}`, `{"mediaId":0,"progress":9,"status":"CURRENT"}`} {
		body := `{"query":"mutation { SaveMediaListEntry }","variables":` + vars + `}`
		if status, _ := post(t, srv, "/", "application/json", body, "tok"); status != http.StatusBadRequest {
			t.Errorf("%s: %d", vars, status)
		}
	}
	if e, _ := s.Entry("r", "5"); e.Progress != 2 {
		t.Fatalf("a refused write changed the entry: %+v", e)
	}
}

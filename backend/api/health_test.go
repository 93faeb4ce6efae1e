package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"mangabookmark/backend/api"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

func TestHealthzFollowsTheDatabase(t *testing.T) {
	t.Parallel()
	dsn := dbtest.NewURL(t)
	ctx := context.Background()
	st, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := httptest.NewServer(newServer(t, api.Config{Store: st}))
	defer srv.Close()

	get := func() (int, map[string]any) {
		resp, err := http.Get(srv.URL + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
			t.Fatalf("healthz body: %v", err)
		}
		return resp.StatusCode, body
	}
	if code, body := get(); code != http.StatusOK || body["ok"] != true {
		t.Fatalf("healthy: %d %v", code, body)
	}

	// Take the database away under the running server.
	dropDatabase(t, dsn)
	if code, body := get(); code != http.StatusServiceUnavailable || body["ok"] != false {
		t.Fatalf("database gone: %d %v", code, body)
	}
}

func TestUnknownPathAndHugeBody(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(newServer(t, api.Config{}))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/nope")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("unknown path: %d", resp.StatusCode)
	}
	resp, err = http.Post(srv.URL+"/api/progress", "application/json", bytes.NewReader(make([]byte, 2<<20)))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("2 MiB body: %d", resp.StatusCode)
	}
}

package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/sites"
)

// A symlink planted in the --save directory while the probe read the Site
// is not followed: the file it points to stays as it was.
func TestWriteNewFollowsNoSymlink(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(dir, "manifest.json")); err != nil {
		t.Fatal(err)
	}
	if err := writeNew(filepath.Join(dir, "manifest.json"), []byte("planted")); err == nil {
		t.Fatal("writeNew wrote through a planted symlink")
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Fatalf("the symlink's target changed to %q", b)
	}
	if err := os.WriteFile(filepath.Join(dir, "page.html"), []byte("earlier"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := writeNew(filepath.Join(dir, "page.html"), []byte("new")); err == nil {
		t.Fatal("writeNew overwrote a file planted in the directory")
	}
	if err := writeNew(filepath.Join(dir, "fresh.html"), []byte("ok")); err != nil {
		t.Fatal(err)
	}
}

// Every file --save writes goes through writeNew: a README.md symlink
// planted in the directory fails the save, naming the file, and the file it
// points to stays as it was.
func TestSaveFollowsNoPlantedReadme(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(dir, "README.md")); err != nil {
		t.Fatal(err)
	}
	ref := sites.Ref{Site: "example", SeriesID: "s1", URL: "https://example.test/s1"}
	ex := []exchange{{
		req:  sites.Request{Page: "https://example.test/s1"},
		resp: &sites.Response{Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte("<html></html>")},
	}}
	_, err := saveExchanges(dir, ref.URL, ref, "plain", sites.Result{Outcome: sites.OK}, ex, time.Unix(0, 0))
	if err == nil {
		t.Fatal("the save wrote README.md through a planted symlink")
	}
	if !strings.Contains(err.Error(), "README.md") {
		t.Errorf("the save's error does not name README.md: %v", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Fatalf("the symlink's target changed to %q", b)
	}
}

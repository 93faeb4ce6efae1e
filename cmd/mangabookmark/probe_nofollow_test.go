package main

import (
	"os"
	"path/filepath"
	"testing"
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

package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sitesim"
)

// A symlink planted in the --save directory while the probe read the Site
// is not followed: the file it points to stays as it was.
func TestWriteNewFollowsNoSymlink(t *testing.T) {
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(dir, "manifest.json")); err != nil {
		t.Fatal(err)
	}
	if err := writeNew(root, "manifest.json", []byte("planted")); err == nil {
		t.Fatal("writeNew wrote through a planted symlink")
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Fatalf("the symlink's target changed to %q", b)
	}
	if err := os.WriteFile(filepath.Join(dir, "page.html"), []byte("earlier"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := writeNew(root, "page.html", []byte("new")); err == nil {
		t.Fatal("writeNew overwrote a file planted in the directory")
	}
	if err := writeNew(root, "fresh.html", []byte("ok")); err != nil {
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
	root, err := openSaveDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if err := os.Symlink(victim, filepath.Join(dir, "README.md")); err != nil {
		t.Fatal(err)
	}
	_, err = saveOne(root)
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

// saveOne saves one read of a made-up Series into dir.
func saveOne(dir *os.Root) ([]string, error) {
	ref := sites.Ref{Site: "example", SeriesID: "s1", URL: "https://example.test/s1"}
	ex := []exchange{{
		req:  sites.Request{Page: "https://example.test/s1"},
		resp: &sites.Response{Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte("<html></html>")},
	}}
	return saveExchanges(dir, ref.URL, ref, "plain", sites.Result{Outcome: sites.OK}, ex, time.Unix(0, 0))
}

// The --save directory swapped for a symlink to another directory while
// the probe read the Site (the review's P1r: capture2 -> owner-dir) gets
// nothing: the files go into the directory the probe opened and checked,
// wherever it was moved, never into the symlink's target.
func TestSaveIgnoresADirectorySymlinkPlantedDuringTheRead(t *testing.T) {
	base := t.TempDir()
	dir, moved := filepath.Join(base, "capture"), filepath.Join(base, "moved")
	victim := filepath.Join(t.TempDir(), "owner-dir")
	if err := os.Mkdir(victim, 0o755); err != nil {
		t.Fatal(err)
	}
	root, err := openSaveDir(dir) // before the read
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	// During the read: the checked directory is moved away and a symlink
	// to the victim takes its name.
	if err := os.Rename(dir, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, dir); err != nil {
		t.Fatal(err)
	}
	files, err := saveOne(root)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadDir(victim); len(got) != 0 {
		t.Fatalf("the save wrote %d files into the planted symlink's target", len(got))
	}
	for _, f := range append(files, "README.md", "manifest.json") {
		if _, err := os.Lstat(filepath.Join(moved, f)); err != nil {
			t.Errorf("%s is not in the directory the probe opened: %v", f, err)
		}
	}
}

// The review's P1r, second half: a --save path that is already a symlink
// to another directory when the run starts (planted by someone who can
// write beside it, as in a shared /tmp) is refused at open time, and the
// symlink's target gets nothing: the real command is run, exit 2, the
// reason says it is a symbolic link. A symlink to a file is refused alike.
func TestProbeSaveRefusesASymlinkPlantedBeforeTheRun(t *testing.T) {
	t.Parallel()
	p := newProbeEnv(t, "")
	okURL := p.sim.SeriesURL(sitesim.MangaPill, p.sim.SeriesID(sitesim.MangaPill, 3))
	base := t.TempDir()
	ownerDir := filepath.Join(t.TempDir(), "owner-dir")
	if err := os.Mkdir(ownerDir, 0o755); err != nil {
		t.Fatal(err)
	}
	ownerFile := filepath.Join(t.TempDir(), "owner-file")
	if err := os.WriteFile(ownerFile, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"capture3": ownerDir, "capture4": ownerFile, "dangling": filepath.Join(base, "nowhere")} {
		link := filepath.Join(base, name)
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		out, errOut, code := p.probe(t, "--save", link, okURL)
		if code != 2 || !strings.Contains(errOut, "symbolic link") {
			t.Errorf("--save %s (-> %s): exit %d stderr %q stdout %q, want 2 refusing the symbolic link", name, target, code, errOut, out)
		}
	}
	if got, _ := os.ReadDir(ownerDir); len(got) != 0 {
		t.Fatalf("the probe wrote %d files into the planted symlink's target", len(got))
	}
	if b, _ := os.ReadFile(ownerFile); string(b) != "keep" {
		t.Fatalf("the file behind the symlink changed to %q", b)
	}
	if _, err := os.Lstat(filepath.Join(base, "nowhere")); err == nil {
		t.Fatal("the probe made the dangling symlink's target")
	}
	// A real directory (and a new one) still saves.
	if _, _, code := p.probe(t, "--save", filepath.Join(base, "real"), okURL); code != 0 {
		t.Fatalf("--save into a new directory: exit %d", code)
	}
}

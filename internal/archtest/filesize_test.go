package archtest

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// maxProductLines is docs/conventions.md's bound on a product file: most
// files stay under 300 lines, none goes over 400.
const maxProductLines = 400

// TestProductFilesUnder400Lines holds docs/conventions.md's file rule: no
// Go file but a test (_test.go) is over 400 lines. A file that outgrows it
// is split by seam (one concern per file), never allowed by a list here.
func TestProductFilesUnder400Lines(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	type big struct {
		path  string
		lines int
	}
	var over []big
	checked := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == ".git" || n == ".data" || n == "testdata" || n == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		checked++
		n := bytes.Count(b, []byte("\n"))
		if len(b) > 0 && b[len(b)-1] != '\n' {
			n++
		}
		if n > maxProductLines {
			rel, _ := filepath.Rel(root, p)
			over = append(over, big{filepath.ToSlash(rel), n})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d product Go files found: the walk missed the code", checked)
	}
	sort.Slice(over, func(i, j int) bool { return over[i].path < over[j].path })
	for _, f := range over {
		t.Errorf("%s has %d lines, over the %d a product file may have (docs/conventions.md, \"Files and names\"): split it by seam, one concern per file",
			f.path, f.lines, maxProductLines)
	}
}

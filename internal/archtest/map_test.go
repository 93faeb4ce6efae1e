package archtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// module is the module path every project import starts with.
const module = "mangabookmark/"

// importMap is docs/architecture.md's "Packages and the import map"
// table: each row's package (or path/* pattern) and the project packages
// it may import.
type importMap map[string][]string

// pkg is what go list says of one package.
type pkg struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

var cellPath = regexp.MustCompile("`([^`]+)`")

// readImportMap parses the table under "## Packages and the import map":
// package | owns | may import. A row must say what its package owns.
func readImportMap(t *testing.T) importMap {
	t.Helper()
	f, err := os.Open(filepath.Join(repoRoot(t), "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := importMap{}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			in = line == "## Packages and the import map"
			continue
		case !in || !strings.HasPrefix(line, "| `"):
			continue
		}
		cells := strings.Split(line, "|")
		if len(cells) != 5 {
			t.Fatalf("architecture.md: row %q is not package | owns | may import", line)
		}
		if strings.TrimSpace(cells[2]) == "" {
			t.Errorf("architecture.md: the row of %s says nothing of what it owns", strings.TrimSpace(cells[1]))
		}
		from := cellPath.FindStringSubmatch(cells[1])
		if from == nil {
			t.Fatalf("architecture.md: no package in row %q", line)
		}
		var to []string
		for _, c := range cellPath.FindAllStringSubmatch(cells[3], -1) {
			to = append(to, c[1])
		}
		if _, dup := m[from[1]]; dup {
			t.Fatalf("architecture.md: %s has two rows", from[1])
		}
		m[from[1]] = to
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(m) < 10 {
		t.Fatalf("architecture.md: the import map has only %d rows; was the section renamed?", len(m))
	}
	return m
}

// matches reports whether the package path p falls under pattern: the path
// itself, or any package below it for "path/*".
func matches(pattern, p string) bool {
	if prefix, ok := strings.CutSuffix(pattern, "/*"); ok {
		return strings.HasPrefix(p, prefix+"/")
	}
	return p == pattern
}

// row returns the map's row for package p: its exact row, else the
// longest path/* pattern above it.
func (m importMap) row(p string) (string, bool) {
	if _, ok := m[p]; ok {
		return p, true
	}
	best := ""
	for pattern := range m {
		if matches(pattern, p) && len(pattern) > len(best) {
			best = pattern
		}
	}
	return best, best != ""
}

// allows reports whether package p may import q.
func (m importMap) allows(p, q string) bool {
	key, ok := m.row(p)
	if !ok {
		return false
	}
	for _, pattern := range m[key] {
		if matches(pattern, q) {
			return true
		}
	}
	return false
}

func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("no go.mod at %s: %v", dir, err)
	}
	return dir
}

// goList runs go list -json over the patterns, from the repository root.
func goList(t *testing.T, args ...string) []pkg {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-e", "-json=ImportPath,Imports,Deps"}, args...)...)
	cmd.Dir = repoRoot(t)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v\n%s", args, err, stderr.String())
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// local trims the module path; ok is false for an import from outside.
func local(p string) (string, bool) {
	return strings.CutPrefix(p, module)
}

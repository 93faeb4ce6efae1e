package archtest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var (
	adrFile = regexp.MustCompile(`^(\d{4})-[a-z0-9-]+\.md$`)
	adrRow  = regexp.MustCompile(`^\| (?:\[(\d{4})\]\(([^)]+)\)|(\d{4})) \|`)
)

// TestADRIndex: docs/adr/README.md has one row per number up to the
// highest ADR, in order; a row links the ADR of its number, and a number
// with no file is a row without a link, named under "The missing numbers"
// (which says why).
func TestADRIndex(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(repoRoot(t), "docs", "adr")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[int]string{}
	highest := 0
	for _, e := range entries {
		m := adrFile.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		if prev, dup := files[n]; dup {
			t.Errorf("ADR %04d is both %s and %s", n, prev, e.Name())
		}
		files[n] = e.Name()
		highest = max(highest, n)
	}
	if len(files) < 20 {
		t.Fatalf("found only %d ADRs in %s", len(files), dir)
	}
	b, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	_, missing, _ := strings.Cut(text, "## The missing numbers")
	var rows []int
	for _, line := range strings.Split(text, "\n") {
		m := adrRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		num, link := m[1], m[2]
		if num == "" {
			num = m[3]
		}
		n, _ := strconv.Atoi(num)
		rows = append(rows, n)
		switch file, ok := files[n]; {
		case ok && link != file:
			t.Errorf("docs/adr/README.md: row %04d links %q, want %q", n, link, file)
		case !ok && link != "":
			t.Errorf("docs/adr/README.md: row %04d links %q, but there is no ADR %04d", n, link, n)
		case !ok && !strings.Contains(missing, fmt.Sprintf("%04d", n)):
			t.Errorf("docs/adr/README.md: ADR %04d has no file, and the missing numbers' paragraph does not name it", n)
		}
	}
	for i := 1; i <= highest; i++ {
		if len(rows) < i || rows[i-1] != i {
			t.Fatalf("docs/adr/README.md: rows %v, want one per number from 0001 to %04d in order", rows, highest)
		}
	}
	if len(rows) != highest {
		t.Errorf("docs/adr/README.md: %d rows, want %d", len(rows), highest)
	}
}

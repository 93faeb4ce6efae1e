package store

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// aliasOffset is a column "offset" read through a table alias: in the
// store that is work_members', work_reader_offsets' (rof, in its home) or
// an upsert's excluded row.
var aliasOffset = regexp.MustCompile(`([a-z0-9_]+)\."offset"`)

// A member's offset has one home (readerOffSQL, docs/adr/0021,
// "Offsets per Reader"): outside it, only drift (workOfRead) reads the
// shared work_members."offset" in a statement, so no Reader's numbers can
// take another Reader's offset (W5-2). Comments are left out.
func TestMemberOffsetReadOnlyInItsHome(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{
		"works_numbers.go:rof":      true, // readerOffSQL itself
		"works_offsets.go:excluded": true,
		"record_ok.go:m":            true, "record_ok.go:m2": true, // workOfRead: drift, on shared offsets
		"works_admin.go:m": true, // the Owner's Work view shows the shared offset itself
	}
	seen := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "//") {
				continue
			}
			for _, m := range aliasOffset.FindAllStringSubmatch(line, -1) {
				seen++
				if !allowed[f+":"+m[1]] {
					t.Errorf("%s:%d reads %s: a Reader's offset comes from memberOffSQL or readerOffSQL (works_numbers.go)", f, i+1, m[0])
				}
			}
		}
	}
	if seen == 0 {
		t.Fatal("no offset read found at all: the pattern no longer matches the code")
	}
}

package archtest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"mangabookmark/backend/lanes"
)

// docFiles is every Markdown file of the repository but the ADRs (which
// record what was decided then, in their own words) and testdata.
func docFiles(t *testing.T) map[string]string {
	t.Helper()
	root := repoRoot(t)
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if n := d.Name(); n == ".git" || n == "testdata" || n == "node_modules" || rel == filepath.Join("docs", "adr") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, ".md") {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[filepath.ToSlash(rel)] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 5 {
		t.Fatalf("found only %d Markdown files", len(out))
	}
	return out
}

var stateRow = regexp.MustCompile("^\\| `([a-z_]+)` \\|")

// TestOneLaneStateTable: docs/operations.md's "Lane states" table lists
// lanes.States word for word and in order, and no other document keeps a
// table of them.
func TestOneLaneStateTable(t *testing.T) {
	t.Parallel()
	docs := docFiles(t)
	var got []string
	in := false
	for _, line := range strings.Split(docs["docs/operations.md"], "\n") {
		if strings.HasPrefix(line, "#") {
			in = line == "### Lane states"
			continue
		}
		if m := stateRow.FindStringSubmatch(line); in && m != nil {
			got = append(got, m[1])
		}
	}
	if !slices.Equal(got, lanes.States) {
		t.Errorf("docs/operations.md's Lane states table lists %v, want lanes.States %v", got, lanes.States)
	}
	for name, text := range docs {
		if name == "docs/operations.md" {
			continue
		}
		for _, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(strings.ToLower(strings.TrimSpace(line)), "| state |") {
				t.Errorf("%s keeps a table of Lane states (%q): link docs/operations.md#lane-states instead", name, line)
			}
		}
	}
}

// TestOneWakeGateStatement: the wake gate's rule is stated once, in
// docs/CONTEXT.md, with the numbers the code uses; other documents link to it.
func TestOneWakeGateStatement(t *testing.T) {
	t.Parallel()
	docs := docFiles(t)
	words := []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}
	due := fmt.Sprint(lanes.WakeGateDue)
	if lanes.WakeGateDue < len(words) {
		due = words[lanes.WakeGateDue]
	}
	want := fmt.Sprintf("fewer than %s Series are due and the oldest has waited under %d minutes", due, int(lanes.WakeGateWait.Minutes()))
	rule := regexp.MustCompile(`(?i)fewer than (\d+|[a-z]+) (Series )?(are )?due`)
	for name, text := range docs {
		flat := strings.Join(strings.Fields(text), " ")
		if name == "docs/CONTEXT.md" {
			if !strings.Contains(flat, want) {
				t.Errorf("docs/CONTEXT.md's Wake gate does not say %q (lanes.WakeGateDue, lanes.WakeGateWait)", want)
			}
			if n := len(rule.FindAllString(flat, -1)); n != 1 {
				t.Errorf("docs/CONTEXT.md states the wake gate's rule %d times, want once", n)
			}
			continue
		}
		if m := rule.FindString(flat); m != "" {
			t.Errorf("%s restates the wake gate (%q): link docs/CONTEXT.md's Wake gate instead", name, m)
		}
	}
}

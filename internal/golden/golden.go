// Package golden compares what a test produced with a reviewed file under
// the test's testdata/. `go test ./pkg -update` rewrites the files instead;
// review their diff before committing. It is the one golden helper of the
// repository and defines its one -update flag.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func init() {
	// charmbracelet/x/exp/golden (imported by teatest) defines the same
	// flag; packages initialise in import-path order, so it is there first
	// when both are linked, and one -update rewrites every golden file.
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files under testdata/")
	}
}

// Updating reports whether this run rewrites golden files (-update).
func Updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// Check compares got with the file at path (relative to the test's package,
// conventionally testdata/NAME.golden). With -update it writes got there
// and passes.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if Updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it):\n%s", path, Diff(string(want), string(got)))
	}
}

// Diff describes the first line where got leaves want, with the whole of
// got after it, so a failure shows where and what without a diff tool.
func Diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	var b strings.Builder
	fmt.Fprintf(&b, "first difference at line %d\n", i+1)
	if i < len(w) {
		fmt.Fprintf(&b, "want: %q\n", w[i])
	} else {
		b.WriteString("want: (end of file)\n")
	}
	if i < len(g) {
		fmt.Fprintf(&b, " got: %q\n", g[i])
	} else {
		b.WriteString(" got: (end of output)\n")
	}
	fmt.Fprintf(&b, "--- got in full\n%s", got)
	return b.String()
}

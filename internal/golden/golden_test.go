package golden

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeT records failures instead of failing the real test.
type fakeT struct {
	testing.TB
	failed bool
	msg    string
}

func (f *fakeT) Helper() {}

func (f *fakeT) Errorf(format string, args ...any) {
	f.failed = true
	f.msg = fmt.Sprintf(format, args...)
}

func (f *fakeT) Fatalf(format string, args ...any) { f.Errorf(format, args...) }

func (f *fakeT) Fatal(args ...any) { f.failed = true }

func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.golden")
	if err := os.WriteFile(path, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ok := &fakeT{TB: t}
	Check(ok, path, []byte("one\ntwo\n"))
	if ok.failed {
		t.Error("equal output failed")
	}
	bad := &fakeT{TB: t}
	Check(bad, path, []byte("one\nthree\n"))
	if !bad.failed {
		t.Error("different output passed")
	}
	missing := &fakeT{TB: t}
	Check(missing, filepath.Join(t.TempDir(), "none.golden"), []byte("x"))
	if !missing.failed || !strings.Contains(missing.msg, "-update") {
		t.Errorf("a missing golden file: failed %v, message %q", missing.failed, missing.msg)
	}

	// -update writes the file (and its folder) and passes.
	if err := flagSet("true"); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = flagSet("false") }()
	fresh := filepath.Join(t.TempDir(), "testdata", "new.golden")
	up := &fakeT{TB: t}
	Check(up, fresh, []byte("written\n"))
	if b, err := os.ReadFile(fresh); up.failed || err != nil || string(b) != "written\n" {
		t.Errorf("-update: failed %v, file %q, %v", up.failed, b, err)
	}
}

func TestDiffNamesTheFirstDifference(t *testing.T) {
	t.Parallel()
	d := Diff("a\nb\nc\n", "a\nB\nc\n")
	if !strings.Contains(d, "line 2") || !strings.Contains(d, `want: "b"`) || !strings.Contains(d, `got: "B"`) {
		t.Errorf("diff:\n%s", d)
	}
	if d := Diff("a", "a\nmore"); !strings.Contains(d, "end of file") {
		t.Errorf("longer output:\n%s", d)
	}
}

func flagSet(v string) error { return flag.Set("update", v) }

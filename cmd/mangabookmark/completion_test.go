package main

import (
	"io"
	"os"
	"slices"
	"strings"
	"testing"
)

// captureStdout runs f with os.Stdout sent to a pipe and returns what it wrote.
func captureStdout(t *testing.T, f func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	orig := os.Stdout
	os.Stdout = w
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	defer func() { os.Stdout = orig }()
	f()
	w.Close()
	return <-done
}

func TestShellCompletion(t *testing.T) {
	for line, want := range map[string]string{
		"mangabookmark se":           "serve",
		"mangabookmark token ":       "create list revoke",
		"mangabookmark install-comp": "install-completions",
		"mangabookmark --log-f":      "--log-format",
	} {
		t.Setenv("COMP_LINE", line)
		t.Setenv("COMP_POINT", "")
		code := -1
		out := captureStdout(t, func() { code = run(nil, func(string) string { return "" }) })
		fields := strings.Fields(out)
		slices.Sort(fields) // the completer's order is a map's
		got := strings.Join(fields, " ")
		if code != 0 || got != want {
			t.Errorf("completing %q: exit %d, got %q, want %q", line, code, got, want)
		}
	}
}

func TestHelpExitsZeroWithoutEndingTheProcess(t *testing.T) {
	code := -1
	out := captureStdout(t, func() { code = run([]string{"--help"}, func(string) string { return "" }) })
	if code != 0 || !strings.Contains(out, "install-completions") {
		t.Fatalf("--help: exit %d\n%s", code, out)
	}
}

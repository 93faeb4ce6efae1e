package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// slogMethods are the log/slog calls whose message is checked, with the
// index of the message among their arguments.
var slogMethods = map[string]int{
	"Debug": 0, "Info": 0, "Warn": 0, "Error": 0,
	"DebugContext": 1, "InfoContext": 1, "WarnContext": 1, "ErrorContext": 1,
	"Log": 2,
}

// TestLogMessagesHaveNoPackagePrefix holds docs/conventions.md's logging
// rule: the component is an attribute set at wiring, so a log message
// never starts with a package's name ("lanes: ..."). Error strings keep
// their prefix; only log calls are checked.
func TestLogMessagesHaveNoPackagePrefix(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	fset := token.NewFileSet()
	var files []*ast.File
	names := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == ".git" || n == "testdata" || n == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		names[f.Name.Name] = true
		names[filepath.Base(filepath.Dir(path))] = true
		files = append(files, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			i, ok := slogMethods[sel.Sel.Name]
			if !ok || len(call.Args) <= i {
				return true
			}
			lit, ok := call.Args[i].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			msg, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			checked++
			if word, _, found := strings.Cut(msg, ": "); found && names[word] {
				rel, _ := filepath.Rel(root, fset.Position(lit.Pos()).Filename)
				t.Errorf("%s:%d: log message %q starts with the package name %q: the component is set at wiring",
					rel, fset.Position(lit.Pos()).Line, msg, word)
			}
			return true
		})
	}
	if checked < 50 {
		t.Fatalf("only %d log messages found: the walk missed the code", checked)
	}
}

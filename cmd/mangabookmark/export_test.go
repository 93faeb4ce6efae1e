package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mangabookmark/backend/imports"
	"mangabookmark/backend/sites/registry"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// `export --reader` writes the JSON the import takes back; `--all` one
// such file per Reader.
func TestExportCommand(t *testing.T) {
	t.Parallel()
	dsn := dbtest.NewURL(t)
	ctx := context.Background()
	st, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a, _ := st.UpsertReader(ctx, "500000000000000001", "a", nil)
	if _, err := st.UpsertReader(ctx, "500000000000000002", "b", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddBookmark(ctx, a.ID, "mangapill", "2", "https://mangapill.com/manga/2"); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"DATABASE_URL": dsn, "TOKEN_KEY": strings.Repeat("k", 40), "OWNER_DISCORD_ID": "100000000000000001"}
	getenv := func(k string) string { return vars[k] }
	dir := t.TempDir()
	one := filepath.Join(dir, "a.json")
	if code := run([]string{"export", "--reader", "500000000000000001", "--out", one}, getenv); code != 0 {
		t.Fatalf("export --reader exited %d", code)
	}
	body, err := os.ReadFile(one)
	if err != nil {
		t.Fatal(err)
	}
	reg, _ := registry.New(nil)
	p, err := imports.Decode("application/json", body, reg)
	if err != nil || p.Kind != imports.KindJSON || len(p.Items) != 1 || p.Items[0].URL != "https://mangapill.com/manga/2" {
		t.Fatalf("the export does not import back: %+v %v\n%s", p, err, body)
	}
	all := filepath.Join(dir, "all")
	if code := run([]string{"export", "--all", "--dir", all}, getenv); code != 0 {
		t.Fatalf("export --all exited %d", code)
	}
	for _, id := range []string{"500000000000000001", "500000000000000002"} {
		b, err := os.ReadFile(filepath.Join(all, id+".json"))
		if err != nil || !bytes.Contains(b, []byte(`"version": 1`)) {
			t.Errorf("%s: %v %s", id, err, b)
		}
	}
	if code := run([]string{"export", "--reader", "999"}, getenv); code == 0 {
		t.Error("an unknown Reader exported")
	}
	if code := run([]string{"export", "--all"}, getenv); code == 0 {
		t.Error("--all without --dir ran")
	}
}

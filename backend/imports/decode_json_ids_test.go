package imports_test

import (
	"fmt"
	"strings"
	"testing"

	"mangabookmark/backend/imports"
)

// An export's bookmarks carry their Series' external ids as the API's
// Series shape writes them ({"kind","value","source"}); the import reads
// them back into the Item's IDs, normalised, with the export's work_id
// accepted and left alone.
func TestDecodeJSONExportReadsIDs(t *testing.T) {
	t.Parallel()
	body := `{"version":1,"bookmarks":[{"site":"mangadex","series_id":"x","url":"https://mangadex.org/title/a1c7c817-4e59-43b7-9365-09675a149a6f",` +
		`"work_id":7,"ids":[{"kind":"al","value":"30002","source":"site"},{"kind":"mu","value":"7CYAOZT","source":"import"},` +
		`{"kind":"md","value":"a1c7c817-4e59-43b7-9365-09675a149a6f","source":"site"}]},` +
		`{"url":"https://mangapill.com/manga/2","work_id":null}]}`
	p, err := imports.DecodeJSON(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 2 {
		t.Fatalf("items %+v", p.Items)
	}
	if got := fmt.Sprint(p.Items[0].IDs); got != "[{al 30002} {mu 16020676361} {md a1c7c817-4e59-43b7-9365-09675a149a6f}]" {
		t.Errorf("ids %s", got)
	}
	if p.Items[1].IDs != nil {
		t.Errorf("a bookmark without ids has %v", p.Items[1].IDs)
	}
}

// TestDecodeJSONDropsHostileIDs: an export is the Reader's upload. Ids
// that are not a list, entries of the wrong type or with unknown keys,
// unknown kinds, links on other hosts, control characters and thousands
// of entries cost only those entries: the bookmark and the good ids stay.
func TestDecodeJSONDropsHostileIDs(t *testing.T) {
	t.Parallel()
	var many strings.Builder
	for i := 0; i < 10000; i++ {
		fmt.Fprintf(&many, `{"kind":"ap","value":"x%d"},`, i)
	}
	for _, c := range []struct{ name, ids, want string }{
		{"not a list", `{"kind":"al","value":"1"}`, "[]"},
		{"string", `"al:1"`, "[]"},
		{"wrong types", `[1,null,"al",{"kind":1,"value":"1"},{"kind":"al","value":1},{"kind":"al","value":"2","extra":{"x":1}}]`, "[{al 2}]"},
		{"refused values", `[{"kind":"al","value":"https://evil.example/manga/1"},{"kind":"mal","value":"1\u0000"},{"kind":"md","value":"../x"},{"kind":"kt","value":"2"}]`, "[{kt 2}]"},
		// Both are read; the plan keeps the first and lists the second.
		{"two of a kind", `[{"kind":"al","value":"1"},{"kind":"al","value":"2"},{"kind":"al","value":"1"}]`, "[{al 1} {al 2}]"},
		{"ten thousand", `[` + many.String() + `{"kind":"al","value":"3"}]`, "[]"},
	} {
		body := `{"version":1,"bookmarks":[{"url":"https://mangapill.com/manga/2","ids":` + c.ids + `},{"url":"https://mangapill.com/manga/3"}]}`
		p, err := imports.DecodeJSON(strings.NewReader(body))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(p.Items) != 2 {
			t.Fatalf("%s: items %+v", c.name, p.Items)
		}
		if got := fmt.Sprint(p.Items[0].IDs); got != c.want {
			t.Errorf("%s: ids %s, want %s", c.name, got, c.want)
		}
	}
}

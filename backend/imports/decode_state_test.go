package imports_test

import (
	"strings"
	"testing"

	"mangabookmark/backend/imports"
)

// An export's reading state comes back with its bookmark; a row whose
// state is not one of the six (an upload the Reader controls) is listed as
// unsupported with the six named, and costs only that row.
func TestDecodeReadsTheState(t *testing.T) {
	t.Parallel()
	body := `{"version":1,"bookmarks":[{"url":"https://mangapill.com/manga/2","state":"dropped"},` +
		`{"url":"https://mangapill.com/manga/3","state":"paused"},{"url":"https://mangapill.com/manga/4","state":"<b>"},` +
		`{"url":"https://mangapill.com/manga/5"}]}`
	p, err := imports.DecodeJSON(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 2 || p.Items[0].State != "dropped" || p.Items[1].State != "" {
		t.Fatalf("items %+v", p.Items)
	}
	if len(p.Unsupported) != 2 || !strings.Contains(p.Unsupported[0].Reason, "on_hold") {
		t.Fatalf("unsupported %+v", p.Unsupported)
	}
	csv := "url,state\nhttps://mangapill.com/manga/2,plan\nhttps://mangapill.com/manga/3,PLAN\n"
	p, err = imports.DecodeCSV(strings.NewReader(csv))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 1 || p.Items[0].State != "plan" || len(p.Unsupported) != 1 {
		t.Fatalf("csv items %+v unsupported %+v", p.Items, p.Unsupported)
	}
}

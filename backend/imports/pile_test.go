package imports_test

import (
	"strings"
	"testing"

	"mangabookmark/backend/imports"
)

// A pile bookmark's thresholds come back from both export shapes; one
// out of the table's bounds skips its row with the reason, losing none
// of the others.
func TestDecodePileThresholds(t *testing.T) {
	t.Parallel()
	const head = "url,notify_mode,notify_pile,notify_pile_days\n"
	for _, c := range []struct {
		name, csv, json string
		pile, days      int
		says            string
	}{
		{"given", "https://x/1,pile,12,20", `{"url":"https://x/1","notify_mode":"pile","notify_pile":12,"notify_pile_days":20}`, 12, 20, ""},
		{"absent: the defaults", "https://x/1,pile,,", `{"url":"https://x/1","notify_mode":"pile"}`, 0, 0, ""},
		{"another mode: ignored", "https://x/1,each,12,20", `{"url":"https://x/1","notify_mode":"each","notify_pile":12}`, 0, 0, ""},
		{"zero", "https://x/1,pile,0,7", `{"url":"https://x/1","notify_mode":"pile","notify_pile":0}`, 0, 0, "notify_pile 0 is not a number of chapters from 1 to 1000"},
		{"too many", "https://x/1,pile,1001,7", `{"url":"https://x/1","notify_mode":"pile","notify_pile":1001}`, 0, 0, "from 1 to 1000"},
		{"too long", "https://x/1,pile,3,61", `{"url":"https://x/1","notify_mode":"pile","notify_pile_days":61}`, 0, 0, "notify_pile_days 61 is not a number of days from 1 to 60"},
	} {
		fromCSV, err := imports.DecodeCSV(strings.NewReader(head + c.csv + "\nhttps://x/2,,,\n"))
		if err != nil {
			t.Fatalf("%s: csv: %v", c.name, err)
		}
		fromJSON, err := imports.DecodeJSON(strings.NewReader(`{"version":1,"bookmarks":[` + c.json + `,{"url":"https://x/2"}]}`))
		if err != nil {
			t.Fatalf("%s: json: %v", c.name, err)
		}
		for shape, p := range map[string]*imports.Parsed{"csv": fromCSV, "json": fromJSON} {
			if c.says != "" {
				if len(p.Items) != 1 || p.Items[0].URL != "https://x/2" || len(p.Unsupported) != 1 || !strings.Contains(p.Unsupported[0].Reason, c.says) {
					t.Errorf("%s (%s): items %+v unsupported %+v, want the row skipped saying %q", c.name, shape, p.Items, p.Unsupported, c.says)
				}
				continue
			}
			if len(p.Items) != 2 || p.Items[0].NotifyPile != c.pile || p.Items[0].NotifyPileDays != c.days {
				t.Errorf("%s (%s): items %+v, want pile %d days %d", c.name, shape, p.Items, c.pile, c.days)
			}
		}
	}
	p, err := imports.DecodeCSV(strings.NewReader(head + "https://x/1,pile,twelve,\n"))
	if err != nil || len(p.Unsupported) != 1 || p.Unsupported[0].Reason != `notify_pile "twelve" is not a whole number` {
		t.Fatalf("a word for a number: %+v %v", p, err)
	}
}

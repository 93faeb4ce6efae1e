package lanes_test

import (
	"context"
	"testing"
	"time"

	"mangabookmark/backend/sites"
)

// A good read passes the page's external ids and other titles to the
// store: two Series on two Sites whose pages name one AniList id are one
// Work after their Lanes' passes, with no request beyond the two reads.
func TestReadsIDsLinkAWork(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, siteSpec{name: "s"}, siteSpec{name: "u"})
	ctx := context.Background()
	e.seed(t, "s", 1, t0.Add(-time.Hour))
	e.seed(t, "u", 1, t0.Add(-time.Hour))
	for _, site := range []string{"s", "u"} {
		r := okResult("12", "")
		r.Facts.IDs = []sites.ExternalID{{Kind: sites.IDAniList, Value: "30002"}}
		r.Facts.AltTitles = []string{"Other " + site}
		e.ad[site].set("1", r)
		e.runPass(t, site)
	}
	var works, alt int
	if err := e.st.Pool().QueryRow(ctx, `SELECT count(DISTINCT work_id), (SELECT count(*) FROM series WHERE cardinality(alt_titles) = 1)
		FROM work_members`).Scan(&works, &alt); err != nil {
		t.Fatal(err)
	}
	if works != 1 || alt != 2 {
		t.Fatalf("%d Works, %d Series with other titles; want 1 Work of both and 2", works, alt)
	}
	if n := len(e.ad["s"].readLog()) + len(e.ad["u"].readLog()); n != 2 {
		t.Fatalf("%d Site reads, want the 2 polls only", n)
	}
}

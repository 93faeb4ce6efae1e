package sitesim

import (
	"fmt"
	"testing"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/comix"
	"mangabookmark/backend/sites/mangadex"
)

// TestLinksReadByTheAdapters: what the MangaDex and Comix pages carry is
// what their adapters read, exactly Links; Series k on the two Sites share
// ids exactly when SharesIDs(k), and the rule holds for every k.
func TestLinksReadByTheAdapters(t *testing.T) {
	t.Parallel()
	const n = 40
	sim := mustNew(t, Config{SeriesPerSite: n})
	shared := 0
	for k := 0; k < n; k++ {
		id := seriesID(MangaDex, k)
		f, out, err := mangadex.ParseManga(get(t, sim.Handler(MangaDex), "/manga/"+id, nil).Body.Bytes(), id, "http://sim.test")
		if out != sites.OK {
			t.Fatalf("mangadex %d: %s (%v)", k, out, err)
		}
		md := f.IDs
		f, out, err = comix.ParsePage(get(t, sim.Handler(Comix), "/title/"+seriesID(Comix, k), nil).Body.Bytes(), "http://sim.test", time.Now())
		if out != sites.OK {
			t.Fatalf("comix %d: %s (%v)", k, out, err)
		}
		cx := f.IDs
		for _, c := range []struct {
			site string
			got  []sites.ExternalID
		}{{MangaDex, md}, {Comix, cx}} {
			if want := Links(c.site, k); fmt.Sprint(asLinks(c.got)) != fmt.Sprint(want) {
				t.Errorf("%s %d: adapter read %v, Links says %v", c.site, k, c.got, want)
			}
		}
		common := 0
		for _, a := range md {
			for _, b := range cx {
				if a == b {
					common++
				}
			}
		}
		if (common > 0) != SharesIDs(k) {
			t.Errorf("Series %d: %d ids in common, SharesIDs %v", k, common, SharesIDs(k))
		}
		if SharesIDs(k) {
			shared++
			if len(f.AltTitles) != 1 || f.AltTitles[0] != title(MangaDex, k) {
				t.Errorf("comix %d: alt titles %q, want the MangaDex title", k, f.AltTitles)
			}
		}
	}
	if shared != n/4 {
		t.Errorf("%d Series pairs share ids, want %d", shared, n/4)
	}
}

func asLinks(ids []sites.ExternalID) []Link {
	out := make([]Link, 0, len(ids))
	for _, id := range ids {
		out = append(out, Link{id.Kind, id.Value})
	}
	return out
}

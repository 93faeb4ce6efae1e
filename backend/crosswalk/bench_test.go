package crosswalk_test

import (
	"bufio"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/crosswalk"
	"mangabookmark/backend/lanes/lanestest"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// story is one labelled story of testdata/mu_pairs.tsv.
type story struct {
	urlID, apiNumber, legacy string
}

func readPairs(tb testing.TB) []story {
	tb.Helper()
	f, err := os.Open("testdata/mu_pairs.tsv")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []story
	legacy := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		c := strings.Split(line, "\t")
		if c[0] == "legacy" {
			legacy[c[2]] = c[1]
			continue
		}
		out = append(out, story{urlID: c[0], apiNumber: c[1]})
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	for i := range out {
		out[i].legacy = legacy[out[i].urlID]
	}
	return out
}

// member is one Series of a story and the mu form its page carries.
type member struct {
	site, form string
}

// BenchmarkMangaUpdatesForms is the linking measure of issue 44 on the
// labelled stories of testdata/mu_pairs.tsv (real URL ids, each cited):
// each story's Series on MangaDex carries the bare URL id, on Comix the
// link to /series/{url id}, on MangaPill the API number, and where the
// file names one, on WeebCentral the pre-2022 id, which only the
// crosswalk (a MangaBaka stand-in answering that legacy id with the
// story's URL id) can join. Reported: the share of mixed-form pairs in
// one Work (today's rule, forms compared as given: old_share), false
// links (a Work holding two labelled stories), and the crosswalk's
// requests per new id and per id seen again within 7 days.
func BenchmarkMangaUpdatesForms(b *testing.B) {
	stories := readPairs(b)
	for i := 0; i < b.N; i++ {
		runFormsBench(b, stories)
	}
}

func runFormsBench(b *testing.B, stories []story) {
	b.StopTimer()
	ctx := context.Background()
	st := dbtest.New(b)
	clock := lanestest.NewFakeClock(t0)
	mb := newStandin(b, map[string]answer{})
	for _, s := range stories {
		if s.legacy != "" {
			mb.set("/v1/source/manga-updates/"+s.legacy, answer{status: 200, body: `{"status":200,"data":{"series":[{"id":1,"state":"active",` +
				`"source":{"anilist":{"id":null},"my_anime_list":{"id":null},"kitsu":{"id":null},"manga_updates":{"id":"` + s.urlID + `"}}}],"source_response":null}}`})
		}
	}
	w, err := crosswalk.New(crosswalk.Config{Store: st, Client: crosswalk.NewClient(mb.srv.URL, "bench", nil), Clock: clock})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := st.Pool().Exec(ctx, `INSERT INTO readers (id, discord_id, name) VALUES (1, 'ann', 'Ann')`); err != nil {
		b.Fatal(err)
	}
	read := func(site, sid, form string) {
		id, ok := sites.NormalizeID(sites.IDMangaUpdates, form)
		if !ok {
			b.Fatalf("%s refused", form)
		}
		if _, err := st.AddBookmark(ctx, 1, site, sid, "https://"+site+".example/"+sid); err != nil {
			b.Fatal(err)
		}
		if _, err := st.RecordOK(ctx, site, sid, store.ReadFacts{Title: "T", Number: "1",
			IDs: []store.ExternalID{{Kind: id.Kind, Value: id.Value}}}, clock.Now()); err != nil {
			b.Fatal(err)
		}
	}
	drain := func() {
		for {
			s, err := w.RunOnce(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if s.Taken == 0 {
				return
			}
		}
	}
	members := map[string][]member{}
	b.StartTimer()
	newIDs := map[string]bool{}
	for _, s := range stories {
		ms := []member{{"mangadex", s.urlID}, {"comix", "https://www.mangaupdates.com/series/" + s.urlID}, {"mangapill", s.apiNumber}}
		if s.legacy != "" {
			ms = append(ms, member{"weebcentral", s.legacy})
		}
		for _, m := range ms {
			read(m.site, s.urlID, m.form)
			id, _ := sites.NormalizeID(sites.IDMangaUpdates, m.form)
			newIDs[id.Kind+" "+id.Value] = true
		}
		members[s.urlID] = ms
	}
	drain()
	firstRequests := w.Requests()
	// The same ids again on new Series within 7 days: the cache answers.
	clock.Advance(3 * 24 * time.Hour)
	for _, s := range stories {
		read("weebcentral", "again-"+s.urlID, s.urlID)
	}
	drain()
	b.StopTimer()
	seenRequests := w.Requests() - firstRequests

	var mixed, linked, oldLinked int
	for _, s := range stories {
		ms := members[s.urlID]
		for i := range ms {
			for j := i + 1; j < len(ms); j++ {
				a, c := ms[i], ms[j]
				if oldForm(a.form) == oldForm(c.form) {
					continue // the same form: not a mixed pair
				}
				mixed++
				wa, _ := st.WorkOf(ctx, a.site, s.urlID)
				wc, _ := st.WorkOf(ctx, c.site, s.urlID)
				if wa != 0 && wa == wc {
					linked++
				}
			}
		}
	}
	var falseLinks int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM (SELECT work_id FROM work_members
		GROUP BY work_id HAVING count(DISTINCT replace(series_id, 'again-', '')) > 1) x`).Scan(&falseLinks); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(len(stories)), "stories")
	b.ReportMetric(float64(mixed), "mixed_pairs")
	b.ReportMetric(float64(linked)/float64(mixed), "linked_share")
	b.ReportMetric(float64(oldLinked)/float64(mixed), "old_share")
	b.ReportMetric(float64(falseLinks), "false_links")
	b.ReportMetric(float64(firstRequests)/float64(len(newIDs)), "req/new_id")
	b.ReportMetric(float64(seenRequests)/float64(len(stories)), "req/seen_id")
}

// oldForm is how the rule before issue 44 kept a MangaUpdates id: the id
// segment of a link or the bare value, lower-cased; two Series linked
// only on equal forms, so a mixed pair never linked (old_share).
func oldForm(v string) string {
	v = strings.ToLower(strings.TrimSuffix(v, "/"))
	if i := strings.LastIndex(v, "/series/"); i >= 0 {
		v = v[i+len("/series/"):]
	}
	return v
}

package registry_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"testing"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/sitestest"
	"mangabookmark/backend/sitesim"
)

// taping records every answer a read got, as the probe's recorder does.
type taping struct {
	next sites.Fetcher
	mu   sync.Mutex
	got  []taped
}

type taped struct {
	req  sites.Request
	body []byte
}

func (f *taping) Fetch(ctx context.Context, req sites.Request) (*sites.Response, error) {
	resp, err := f.next.Fetch(ctx, req)
	if resp != nil {
		f.mu.Lock()
		f.got = append(f.got, taped{req, resp.Body})
		f.mu.Unlock()
	}
	return resp, err
}

// Every adapter names the fields its fixtures have (sites.Shaper). On the
// simulator, which serves each Site in its fixtures' shape, a good read
// finds all of them; a changed layout misses at least one, which is the
// diff the probe prints.
func TestEveryAdapterShapeMatchesTheSimulator(t *testing.T) {
	t.Parallel()
	sim, reg := startSim(t, 4)
	route := sitestest.Plain(t, sites.PlainOptions{})
	for _, s := range reg.All() {
		shaper, ok := s.Adapter.(sites.Shaper)
		if !ok {
			t.Errorf("%s: the adapter names no fields (sites.Shaper)", s.Name)
			continue
		}
		check := func(mode sitesim.Mode) (found, missed []string) {
			id := sim.SeriesID(s.Name, 1)
			sim.SetSeries(s.Name, id, sitesim.Behavior{Mode: mode})
			tape := &taping{next: route}
			read(t, reg, tape, sim.SeriesURL(s.Name, id))
			for _, e := range tape.got {
				for _, f := range shaper.Shape(e.req, e.body) {
					if f.Found {
						found = append(found, f.Name)
					} else {
						missed = append(missed, f.Name)
					}
				}
			}
			return found, missed
		}
		if found, missed := check(sitesim.Steady); len(found) == 0 || len(missed) != 0 {
			t.Errorf("%s steady: found %v, missed %v", s.Name, found, missed)
		}
		if _, missed := check(sitesim.LayoutChanged); len(missed) == 0 {
			t.Errorf("%s layout_changed: nothing missed", s.Name)
		}
	}
}

// Every adapter's fixtures say which public client they were last checked
// against, at which commit, on which day.
func TestEveryAdapterFixturesSayWhenLastChecked(t *testing.T) {
	t.Parallel()
	line := regexp.MustCompile(`(?m)^last checked against [\w.-]+/[\w.-]+ [0-9a-f]{7,40}\b.* on \d{4}-\d{2}-\d{2}$`)
	_, reg := startSim(t, 1)
	for _, s := range reg.All() {
		b, err := os.ReadFile(filepath.Join("..", s.Name, "testdata", "README.md"))
		if err != nil {
			t.Errorf("%s: %v", s.Name, err)
			continue
		}
		if !line.Match(b) {
			t.Errorf("%s: testdata/README.md has no line \"last checked against <client> <commit> on <date>\"", s.Name)
		}
	}
}

package main

import (
	"fmt"
	"strings"

	"mangabookmark/backend/sites"
)

// shapeFetches fills each fetch's Found and Missed: the fields the
// adapter's fixtures have (sites.Shaper) that the answer carries, and those
// it expected but did not find. A fetch without an answer, or an adapter
// that names no fields, is left without.
func shapeFetches(a sites.Adapter, ex []exchange, fetches []probeFetch) {
	shaper, ok := a.(sites.Shaper)
	if !ok {
		return
	}
	for i, e := range ex {
		if e.resp == nil || i >= len(fetches) {
			continue
		}
		fields := shaper.Shape(e.req, e.resp.Body)
		if fields == nil {
			continue
		}
		f := &fetches[i]
		f.Found, f.Missed = []string{}, []string{}
		for _, fl := range fields {
			if fl.Found {
				f.Found = append(f.Found, fl.Name)
			} else {
				f.Missed = append(f.Missed, fl.Name)
			}
		}
	}
}

// shapeLine is the text form of one fetch's shape diff.
func shapeLine(f probeFetch) string {
	list := func(names []string) string {
		if len(names) == 0 {
			return "none"
		}
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("found %d: %s; missed %d: %s", len(f.Found), list(f.Found), len(f.Missed), list(f.Missed))
}

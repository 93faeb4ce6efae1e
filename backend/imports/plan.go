package imports

import (
	"errors"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
)

// Plan is a decoded file resolved to Series: one entry per distinct
// Series, in the file's order, and what cannot be imported.
type Plan struct {
	Kind        string
	Source      string
	Total       int // every item the file named
	Entries     []store.ImportEntry
	Duplicates  int // items naming a Series an earlier item named
	Unsupported []store.ImportProblem
}

// MakePlan runs every item through the Site resolver POST /api/bookmarks
// uses. Two items of one Series become one entry with the higher Progress.
func MakePlan(p *Parsed, reg *sites.Registry) *Plan {
	pl := &Plan{Kind: p.Kind, Source: p.Source, Total: len(p.Items) + len(p.Unsupported),
		Unsupported: append([]store.ImportProblem(nil), p.Unsupported...)}
	at := map[[2]string]int{}
	for _, it := range p.Items {
		ref, err := reg.Canonicalize(it.URL)
		if err != nil {
			pl.Unsupported = append(pl.Unsupported, store.ImportProblem{Item: it.Label, Reason: resolveReason(err)})
			continue
		}
		key := [2]string{ref.Site, ref.SeriesID}
		if i, seen := at[key]; seen {
			pl.Duplicates++
			pl.Entries[i].IDs = pl.keepIDs(it.Label, pl.Entries[i].IDs, importIDs(it.IDs))
			if pl.Entries[i].Title == "" {
				pl.Entries[i].Title = store.GivenTitle(it.Title)
			}
			if e := &pl.Entries[i]; it.Number != "" && (e.Number == "" || sites.CompareNumbers(it.Number, e.Number) > 0) {
				e.Number, e.ReadAt = it.Number, it.ReadAt
			}
			continue
		}
		at[key] = len(pl.Entries)
		pl.Entries = append(pl.Entries, store.ImportEntry{Item: it.Label, Site: ref.Site, SeriesID: ref.SeriesID,
			URL: ref.URL, Number: it.Number, ReadAt: it.ReadAt, NotifyMode: it.NotifyMode,
			NotifyPile: it.NotifyPile, NotifyPileDays: it.NotifyPileDays, State: store.EntryPending, ReadingState: it.State,
			IDs: pl.keepIDs(it.Label, nil, importIDs(it.IDs)), Title: store.GivenTitle(it.Title)})
	}
	return pl
}

// resolveReason says why the resolver refused a URL, in one sentence
// built from the refusal's reason (sites.URLReason), as POST
// /api/bookmarks says it: never the error's text, with its package prefix
// and chain.
func resolveReason(err error) string {
	if errors.Is(err, sites.ErrUnknownSite) {
		return "not a Site we read: " + sites.URLReason(err)
	}
	return sites.RefusedURLSentence(err)
}

// keepIDs adds more to an entry's ids, one id of each kind: the first the
// file named stays (store.SeriesIDs keeps one id per Series, kind and
// Reader), and each other is listed with the import's problems, so the
// Reader sees what was left out.
func (pl *Plan) keepIDs(label string, have, more []store.ExternalID) []store.ExternalID {
	for _, id := range more {
		kept := ""
		for _, h := range have {
			if h.Kind == id.Kind {
				kept = h.Value
				break
			}
		}
		switch {
		case kept == "":
			have = append(have, id)
		case kept != id.Value:
			pl.Unsupported = append(pl.Unsupported, store.ImportProblem{Item: label,
				Reason: "its " + id.Kind + " id " + id.Value + " was left out: a Series keeps one id of each kind, the first the file named (" + id.Kind + " " + kept + ")"})
		}
	}
	return have
}

// importIDs keeps the file's external ids the store takes (source import);
// an id it would refuse is the file's noise and is left out, so one bad
// tracking row never costs the Series its bookmark.
func importIDs(ids []sites.ExternalID) []store.ExternalID {
	var out []store.ExternalID
	for _, id := range ids {
		e := store.ExternalID{Kind: id.Kind, Value: id.Value, Source: store.IDFromImport}
		if store.CheckExternalID(e) == nil {
			out = append(out, e)
		}
	}
	return out
}

package readernotice

import (
	"encoding/json"
	"time"

	"mangabookmark/backend/store"
)

// plan applies the send-time rules to one Reader's owed notices:
//   - Progress caught up: settled as caught_up, never sent;
//   - the bookmark muted since: settled as off;
//   - each: ready;
//   - pile: held until at least Pile of the bookmark's notices are unread,
//     or PileDays have passed since the first held one, then all ready;
//   - the ready ones are sent together once the first of them is older
//     than the Reader's digest window (digest_s), as one Digest written to
//     every target of every enabled outlet.
//
// It does no I/O: it runs inside the claiming transaction.
func plan(in store.DigestInput, now time.Time, outlets []Outlet) store.DigestPlan {
	p := store.DigestPlan{Outcomes: map[int]string{}}
	type pile struct {
		held  int
		first time.Time
	}
	piles := map[[2]string]*pile{}
	for _, o := range in.Owed {
		if o.CaughtUp || o.Mode != "pile" {
			continue
		}
		k := [2]string{o.Site, o.SeriesID}
		if piles[k] == nil {
			piles[k] = &pile{first: o.SeenAt}
		}
		piles[k].held++
		if o.SeenAt.Before(piles[k].first) {
			piles[k].first = o.SeenAt
		}
	}
	var ready []int
	for i, o := range in.Owed {
		switch {
		case o.CaughtUp:
			p.Outcomes[i] = store.NoticeCaughtUp
		case o.Mode == "off":
			p.Outcomes[i] = store.NoticeOff
		case o.Mode == "pile":
			pl := piles[[2]string{o.Site, o.SeriesID}]
			if pl.held >= o.Pile || !now.Before(pl.first.Add(time.Duration(o.PileDays)*24*time.Hour)) {
				ready = append(ready, i)
			}
		default:
			ready = append(ready, i)
		}
	}
	if len(ready) == 0 && len(in.Status) == 0 {
		return p
	}
	first := firstSeen(in, ready)
	if now.Before(first.Add(time.Duration(in.Settings.DigestS) * time.Second)) {
		return p // the window is still open: the caught-up and muted are settled, the rest wait
	}
	d := Digest{Reader: Recipient{DiscordID: in.Reader.DiscordID, Name: in.Reader.Name}, Chapters: []Chapter{}, Late: []Late{}}
	for _, i := range ready {
		o := in.Owed[i]
		p.Outcomes[i] = store.NoticeSent
		d.Chapters = append(d.Chapters, Chapter{Site: o.Site, SeriesID: o.SeriesID, Title: o.SeriesTitle,
			Number: o.Number, ChapterTitle: o.ChapterTitle, URL: o.URL, SeenAt: o.SeenAt.UTC()})
	}
	for _, l := range in.Late {
		d.Late = append(d.Late, Late{Site: l.Site, State: l.State, Since: l.Since.UTC(), SeriesID: l.SeriesID, Title: l.Title})
	}
	for _, l := range in.Status {
		d.Status = append(d.Status, statusChange(l))
	}
	p.StatusTold = len(in.Status) > 0
	for _, o := range in.Offers {
		d.Offers = append(d.Offers, Offer{WorkID: o.WorkID, Site: o.Site, SeriesID: o.SeriesID, Title: o.Title,
			Since: o.Since.UTC(), ToSite: o.ToSite, ToSeriesID: o.ToSeriesID, ToURL: o.ToURL})
	}
	body, _ := json.Marshal(d) // plain structs: cannot fail
	r := readerOf(in.Reader, in.Settings, in.Push, in.Stopped)
	for _, o := range outlets {
		for _, target := range targets(o, r) {
			p.Deliveries = append(p.Deliveries, store.NewDelivery{Outlet: o.Name(), Target: target, Payload: body, FirstSeen: first})
		}
	}
	return p
}

// firstSeen is when the oldest of the ready notices and status lines
// appeared: the digest window runs from it.
func firstSeen(in store.DigestInput, ready []int) time.Time {
	var first time.Time
	for _, i := range ready {
		if t := in.Owed[i].SeenAt; first.IsZero() || t.Before(first) {
			first = t
		}
	}
	for _, l := range in.Status {
		if first.IsZero() || l.ChangedAt.Before(first) {
			first = l.ChangedAt
		}
	}
	return first
}

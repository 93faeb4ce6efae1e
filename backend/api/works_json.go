package api

import (
	"fmt"

	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// workJSON is a stored Work in the wire form of docs/api.md.
func (s *Server) workJSON(wk store.Work) client.Work {
	out := client.Work{ID: wk.ID, Title: wk.Title, New: wk.New, Members: make([]client.WorkMember, 0, len(wk.Members))}
	if l := wk.Latest; l != nil {
		out.Latest = &client.WorkLatest{Number: l.Number, Site: l.Site, SeriesID: l.SeriesID, URL: l.URL, SeenAt: utcPtr(l.SeenAt)}
	}
	if wk.ProgressNumber != "" {
		out.Progress = &client.WorkProgress{Number: wk.ProgressNumber, ReadAt: utcPtr(wk.ProgressReadAt)}
	}
	for _, m := range wk.Members {
		out.Members = append(out.Members, memberJSON(m))
	}
	if wk.Offer != nil {
		o := memberJSON(*wk.Offer)
		out.Offer = &o
	}
	if wk.Prefer != nil {
		out.Prefer = &client.WorkPrefer{Site: wk.Prefer.Site, HoldMinutes: wk.Prefer.HoldMinutes}
	}
	out.Status, out.FinalChapter, out.State = wk.Status, optString(wk.FinalChapter), wk.State
	c, site := wk.Clock()
	out.TimeLine = s.timeLine(c, site, wk.Status, s.Now())
	return out
}

// memberJSON is one member of a Work in the wire form.
func memberJSON(m store.WorkMember) client.WorkMember {
	cm := client.WorkMember{Site: m.Site, SeriesID: m.SeriesID, Title: m.Title, URL: m.URL, Offset: m.Offset,
		LinkedBy: m.LinkedBy, DriftSince: utcPtr(m.DriftSince), Pending: m.Pending}
	if m.LatestNumber != "" {
		cm.Latest = &client.Chapter{Number: m.LatestNumber, Title: m.LatestTitle, URL: m.LatestURL, SeenAt: utcPtr(m.LatestSeenAt)}
	}
	if m.FailingSince != nil {
		cm.Failing = &client.MemberFailing{Outcome: m.FailingOutcome, Since: m.FailingSince.UTC()}
	}
	return cm
}

// seriesCardJSON is a Series' card in the wire form of docs/api.md.
func seriesCardJSON(c store.SeriesCard) client.SeriesCard {
	out := client.SeriesCard{Site: c.Site, SeriesID: c.SeriesID, Title: c.Title, URL: c.URL, WorkID: c.WorkID,
		IDs: make([]client.ExternalID, 0, len(c.IDs)), Suggestions: make([]client.Suggestion, 0, len(c.Suggestions))}
	for _, id := range c.IDs {
		out.IDs = append(out.IDs, client.ExternalID{Kind: id.Kind, Value: id.Value, Source: id.Source})
	}
	for _, g := range c.Suggestions {
		cg := client.Suggestion{Site: g.Site, SeriesID: g.SeriesID, Title: g.Title, URL: g.URL,
			Reason: fmt.Sprintf("its titles look like %q (%.0f%% alike); link it only if it is the same story", g.Matched, g.Score*100)}
		if g.SharedID != "" {
			cg.Reason = fmt.Sprintf("it carries the same id (%s) but is not linked; link it only if it is the same story", g.SharedID)
		}
		if g.LatestNumber != "" {
			cg.Latest = &client.Chapter{Number: g.LatestNumber, URL: g.LatestURL, SeenAt: utcPtr(g.LatestSeenAt)}
		}
		out.Suggestions = append(out.Suggestions, cg)
	}
	return out
}

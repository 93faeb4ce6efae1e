package api

import (
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// timeLine is a story's time line in the wire form (client.TimeLine):
// its clock read on site (the Site's Rest), with its status ("" when
// unknown), as of now. An overdue story has no expected window: the card
// says why instead.
func (s *Server) timeLine(c store.Clock, site, status string, now time.Time) client.TimeLine {
	rest := sites.DefaultRest
	if st := s.Sites.Get(site); st != nil && st.Rest > 0 {
		rest = st.Rest
	}
	tl := client.TimeLine{CheckedAt: utcPtr(c.CheckedAt), NextCheckBy: utcPtr(c.NextCheckBy(rest))}
	exp := store.Expect(c.Sightings, status)
	if why := store.Overdue(exp, status, c.FailingSince, now); why != "" {
		tl.Overdue = &why
	} else if exp != nil {
		tl.Expected = &client.Window{From: exp.From.UTC(), To: exp.To.UTC()}
	}
	return tl
}

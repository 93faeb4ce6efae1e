package api

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"
	"unicode"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// MaxReadsPerBatch bounds one POST /api/progress.
const MaxReadsPerBatch = 500

// maxFutureSkew is how far ahead of the server's clock a read_at may be
// (a Reader's clock may run fast); further is refused as bogus.
const maxFutureSkew = 24 * time.Hour

// readJSON is one read in POST /api/progress. Every field is a string so a
// number sent as a JSON number is a clear 400, not a silent float.
type readJSON struct {
	Site     string `json:"site"`
	SeriesID string `json:"series_id"`
	Number   string `json:"number"`
	URL      string `json:"url"`
	ReadAt   string `json:"read_at"`
}

// ProgressResultJSON answers POST /api/progress. Applied reads created or
// moved Progress; ignored reads were valid but changed nothing (a replay,
// or not beyond the stored Progress); each refused read is listed under
// errors, so applied + ignored + len(errors) is the number of reads sent.
type ProgressResultJSON struct {
	Applied int                `json:"applied"`
	Ignored int                `json:"ignored"`
	Errors  []client.ReadError `json:"errors"` // always present, [] when none
}

// postProgress applies a batch of reads. Invalid entries are reported and
// skipped; the valid ones apply. Progress moves only forward (see
// store.ProgressUpsertSQL), so the call is idempotent in any order.
func (s *Server) postProgress(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	reads, present, ok := decodeReads(w, r)
	if !ok {
		return
	}
	if !present {
		writeError(w, http.StatusBadRequest, `field "reads" is required: send {"reads":[...]}`)
		return
	}
	res := ProgressResultJSON{Errors: []client.ReadError{}}
	valid := make([]store.Read, 0, len(reads))
	at := make([]int, 0, len(reads)) // valid[k] is reads[at[k]]
	now := s.Now()
	for i, in := range reads {
		rd, err := s.validateRead(in, now)
		if err != nil {
			res.Errors = append(res.Errors, client.ReadError{Index: i, Error: err.Error()})
			continue
		}
		rd.ReaderID = id.ReaderID
		valid = append(valid, rd)
		at = append(at, i)
	}
	applied, err := s.Store.ApplyReads(r.Context(), valid)
	if err != nil {
		s.internalError(w, r, "apply reads", err)
		return
	}
	refused := false
	for k, a := range applied {
		switch {
		case errors.Is(a.Refused, store.ErrPastLatest):
			refused = true
			res.Errors = append(res.Errors, client.ReadError{Index: at[k], Error: pastLatestReason(valid[k].Number, a.Latest)})
		case a.Refused != nil:
			refused = true
			res.Errors = append(res.Errors, client.ReadError{Index: at[k], Error: s.limitReason(a.Refused)})
		case a.Moved:
			res.Applied++
		default:
			res.Ignored++
		}
	}
	if refused {
		sort.Slice(res.Errors, func(i, j int) bool { return res.Errors[i].Index < res.Errors[j].Index })
	}
	writeJSON(w, http.StatusOK, res)
}

// validateRead checks one read: a registered Site, a plausible Series id
// (it survives a round trip through the Site's canonical URL), a decimal
// number, an RFC 3339 time not far in the future, and a URL, when given,
// on the Site and (when it names one) of the same Series.
func (s *Server) validateRead(in readJSON, now time.Time) (store.Read, error) {
	site := s.Sites.Get(in.Site)
	if site == nil {
		return store.Read{}, fmt.Errorf("site %q is not one of the Sites (%s)", in.Site, s.siteNames())
	}
	if !plausibleID(in.SeriesID) {
		return store.Read{}, errors.New(`series_id must be the Site's Series id (non-empty, at most 200 printable characters)`)
	}
	ref, err := s.Sites.Canonicalize(site.Adapter.SeriesURL(site, in.SeriesID))
	if err != nil || ref.Site != site.Name || ref.SeriesID != in.SeriesID {
		return store.Read{}, fmt.Errorf("series_id %q is not a %s Series id", in.SeriesID, site.Name)
	}
	number, ok := sites.ParseNumber(in.Number)
	if !ok {
		return store.Read{}, fmt.Errorf(`number %q must be a decimal chapter number such as "12" or "12.5"`, in.Number)
	}
	readAt, err := time.Parse(time.RFC3339, in.ReadAt)
	if err != nil {
		return store.Read{}, fmt.Errorf("read_at %q must be an RFC 3339 time such as 2026-01-02T15:04:05Z", in.ReadAt)
	}
	if readAt.After(now.Add(maxFutureSkew)) {
		return store.Read{}, fmt.Errorf("read_at %s is in the future; check the device's clock", in.ReadAt)
	}
	if err := s.checkReadURL(site, in); err != nil {
		return store.Read{}, err
	}
	return store.Read{Site: site.Name, SeriesID: in.SeriesID, SeriesURL: ref.URL, Number: number,
		URL: strings.TrimSpace(in.URL), ReadAt: readAt.UTC()}, nil
}

func (s *Server) checkReadURL(site *sites.Site, in readJSON) error {
	raw := strings.TrimSpace(in.URL)
	if raw == "" {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil || len(raw) > sites.MaxURLLength || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errors.New("url must be the absolute http(s) URL of the chapter page")
	}
	if !site.OwnsHost(u.Host) {
		return fmt.Errorf("url is not on %s", site.Name)
	}
	ref, err := s.Sites.Canonicalize(raw)
	if errors.Is(err, sites.ErrNoSeries) {
		return nil // a chapter URL that does not name its Series (MangaDex, WeebCentral)
	}
	if err != nil {
		return errors.New("url is not a usable chapter URL: " + sites.URLReason(err))
	}
	if ref.Site != site.Name || ref.SeriesID != in.SeriesID {
		return fmt.Errorf("url names Series %q of %s, not %q", ref.SeriesID, ref.Site, in.SeriesID)
	}
	return nil
}

func plausibleID(id string) bool {
	if id == "" || len(id) > 200 || strings.TrimSpace(id) != id {
		return false
	}
	for _, r := range id {
		if !unicode.IsPrint(r) || r == '/' {
			return false
		}
	}
	return true
}

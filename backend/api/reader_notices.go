package api

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"mangabookmark/backend/readernotice"
	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// noticeRoutes registers the Reader notices part of the contract (docs/api.md,
// "Reader notices"). Without a notice service (Config.Notices nil) the
// settings routes answer 503 and the feed 404; GET /api/chapters works
// either way.
func (s *Server) noticeRoutes() {
	s.mux.HandleFunc("GET /api/chapters", s.reader(s.listChapters))
	s.mux.HandleFunc("GET /api/me/notify", s.reader(s.notices(s.getNotify)))
	s.mux.HandleFunc("PUT /api/me/notify", s.reader(s.limitWrites(capBody(urlBodyBytes, s.notices(s.putNotify)))))
	s.mux.HandleFunc("POST /api/me/feed/rotate", s.reader(s.limitWrites(s.notices(s.rotateFeed))))
	s.mux.HandleFunc("POST /api/me/notify/test", s.reader(s.limitWrites(s.notices(s.testNotify))))
	s.mux.HandleFunc("PUT /api/bookmarks/{site}/{series_id}/notify", s.reader(s.limitWrites(capBody(smallBodyBytes, s.putBookmarkNotify))))
	s.mux.HandleFunc("GET /feeds/{feed_file}", s.getFeed)
	s.mux.HandleFunc("POST /act/read/{link}", s.notices(s.readLink))
}

// readLink is a notice's "Mark read" action (ntfy POSTs it): no header
// auth, the signed link is the authority, and it is never logged.
func (s *Server) readLink(w http.ResponseWriter, r *http.Request) {
	n, err := s.ReaderNotices.MarkReadLink(r.Context(), r.PathValue("link"))
	if errors.Is(err, readernotice.ErrBadReadLink) {
		writeError(w, http.StatusNotFound, "this mark-read link is not valid or has expired; mark the chapters read in your library")
		return
	}
	if err != nil {
		s.Log.Error("mark-read link", "error", err)
		writeError(w, http.StatusServiceUnavailable, "the chapters cannot be marked read right now; try again shortly")
		return
	}
	writeJSON(w, http.StatusOK, map[string]int{"moved": n})
}

func (s *Server) notices(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.ReaderNotices == nil {
			writeError(w, http.StatusServiceUnavailable, "this server runs no Reader notices; ask the Owner")
			return
		}
		h(w, r)
	}
}

// ChaptersDefault and ChaptersMax bound GET /api/chapters?limit=.
const (
	ChaptersDefault = 50
	ChaptersMax     = 500
)

func (s *Server) listChapters(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	limit := ChaptersDefault
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > ChaptersMax {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("limit=%q must be a whole number from 1 to %d", v, ChaptersMax))
			return
		}
		limit = n
	}
	evs, err := s.Store.ReaderChapters(r.Context(), id.ReaderID, time.Time{}, limit)
	if err != nil {
		s.internalError(w, r, "list chapters", err)
		return
	}
	out := client.ChaptersResponse{Chapters: make([]client.ChapterEvent, len(evs))}
	for i, e := range evs {
		out.Chapters[i] = client.ChapterEvent{Site: e.Site, SeriesID: e.SeriesID, Title: e.SeriesTitle,
			Number: e.Number, ChapterTitle: e.ChapterTitle, URL: e.URL, SeenAt: e.SeenAt.UTC()}
	}
	writeJSON(w, http.StatusOK, out)
}

// NotifyJSON is a Reader's settings in the wire form.
func NotifyJSON(st readernotice.Settings) client.Notify {
	out := client.Notify{DigestS: st.DigestS, Discord: st.Discord, DiscordAvailable: st.DiscordAvailable,
		NtfyURL: st.NtfyURL, WebhookURL: st.WebhookURL, WebhookSecretSet: st.WebhookSecretSet,
		WebhookSecret: st.WebhookSecret, PushSubscriptions: st.PushSubscriptions, FeedURL: st.FeedURL,
		Outlets: make([]client.OutletHealth, len(st.Outlets))}
	for i, h := range st.Outlets {
		out.Outlets[i] = client.OutletHealth{Outlet: h.Outlet, LastOKAt: utcPtr(h.LastOKAt), LastError: h.LastError,
			FailingSince: utcPtr(h.FailingSince), Dropped: h.Dropped, StoppedAt: utcPtr(h.StoppedAt)}
	}
	return out
}

func (s *Server) getNotify(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	st, err := s.ReaderNotices.Settings(r.Context(), id.ReaderID)
	if err != nil {
		s.internalError(w, r, "get notify", err)
		return
	}
	writeJSON(w, http.StatusOK, NotifyJSON(st))
}

func (s *Server) putNotify(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	var body client.NotifyChange
	if !decodeJSON(w, r, &body) {
		return
	}
	st, err := s.ReaderNotices.UpdateSettings(r.Context(), id.ReaderID, readernotice.SettingsChange{DigestS: body.DigestS, Discord: body.Discord,
		NtfyURL: body.NtfyURL, WebhookURL: body.WebhookURL})
	var fe *readernotice.FieldError
	if errors.As(err, &fe) {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("field %q: %s", fe.Field, fe.Msg))
		return
	}
	if err != nil {
		s.internalError(w, r, "put notify", err)
		return
	}
	writeJSON(w, http.StatusOK, NotifyJSON(st))
}

func (s *Server) rotateFeed(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	u, err := s.ReaderNotices.RotateFeed(r.Context(), id.ReaderID)
	if err != nil {
		s.internalError(w, r, "rotate feed", err)
		return
	}
	writeJSON(w, http.StatusOK, client.FeedRotated{FeedURL: u})
}

func (s *Server) testNotify(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	res, err := s.ReaderNotices.SendTest(r.Context(), id.ReaderID)
	var soon *readernotice.TestTooSoonError
	if errors.As(err, &soon) {
		w.Header().Set("Retry-After", strconv.Itoa(soon.Seconds()))
		writeError(w, http.StatusTooManyRequests, soon.Reason())
		return
	}
	if err != nil {
		s.internalError(w, r, "test notice", err)
		return
	}
	out := client.TestResults{Results: make([]client.TestResult, len(res))}
	for i, x := range res {
		out.Results[i] = client.TestResult{Outlet: x.Outlet, OK: x.OK, Error: x.Error}
	}
	writeJSON(w, http.StatusOK, out)
}

type bookmarkNotifyBody struct {
	Mode     *string `json:"mode"`
	Pile     *int    `json:"pile"`
	PileDays *int    `json:"pile_days"`
}

// Pile bounds of a bookmark's notify mode.
const (
	PileMax     = 1000
	PileDaysMax = 60
)

func (s *Server) putBookmarkNotify(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	if s.siteOr404(w, r.PathValue("site")) == nil {
		return
	}
	var body bookmarkNotifyBody
	if !decodeJSON(w, r, &body) {
		return
	}
	cur, err := s.Store.GetBookmark(r.Context(), id.ReaderID, r.PathValue("site"), r.PathValue("series_id"))
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, "you have no bookmark of that Series; add it first")
		return
	}
	if err != nil {
		s.internalError(w, r, "bookmark notify", err)
		return
	}
	mode, pile, days := cur.NotifyMode, cur.NotifyPile, cur.NotifyPileDays
	if body.Mode != nil {
		mode = strings.TrimSpace(*body.Mode)
	}
	if body.Pile != nil {
		pile = *body.Pile
	}
	if body.PileDays != nil {
		days = *body.PileDays
	}
	switch {
	case mode != store.NotifyEach && mode != store.NotifyOff && mode != store.NotifyPile:
		writeError(w, http.StatusBadRequest, `field "mode" must be "each", "off" or "pile"`)
		return
	case pile < 1 || pile > PileMax:
		writeError(w, http.StatusBadRequest, fmt.Sprintf(`field "pile" must be a whole number of chapters from 1 to %d`, PileMax))
		return
	case days < 1 || days > PileDaysMax:
		writeError(w, http.StatusBadRequest, fmt.Sprintf(`field "pile_days" must be a whole number of days from 1 to %d`, PileDaysMax))
		return
	}
	b, err := s.Store.SetBookmarkNotify(r.Context(), id.ReaderID, cur.Site, cur.SeriesID, mode, pile, days)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, "you have no bookmark of that Series; add it first")
		return
	}
	if err != nil {
		s.internalError(w, r, "bookmark notify", err)
		return
	}
	writeJSON(w, http.StatusOK, s.bookmarkJSON(b))
}

// getFeed serves a Reader's Atom feed. The token is the path, so neither
// it nor the path is ever logged.
func (s *Server) getFeed(w http.ResponseWriter, r *http.Request) {
	token, ok := strings.CutSuffix(r.PathValue("feed_file"), ".atom")
	if !ok || s.ReaderNotices == nil {
		writeError(w, http.StatusNotFound, "no such feed: copy the feed URL from your settings page again")
		return
	}
	body, err := s.ReaderNotices.Feed(r.Context(), token)
	if errors.Is(err, readernotice.ErrNoFeed) {
		writeError(w, http.StatusNotFound, "no such feed: copy the feed URL from your settings page again")
		return
	}
	if err != nil {
		s.Log.Error("feed", "error", err)
		writeError(w, http.StatusServiceUnavailable, "the feed cannot be read right now; try again shortly")
		return
	}
	w.Header().Set("Content-Type", "application/atom+xml; charset=utf-8")
	w.Header().Set("Cache-Control", "private, max-age=60")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
	_, _ = w.Write(body)
}

// readerNotices is the Owner's view of Reader notice delivery: owed
// notices, deliveries sent in the last 24 h and failing outlets by kind.
func (s *Server) readerNotices(r *http.Request) (*client.ReaderNotices, error) {
	c, err := s.Store.CountNotices(r.Context(), s.Now().Add(-24*time.Hour))
	if err != nil {
		return nil, err
	}
	failing, err := s.Store.FailingOutlets(r.Context())
	if err != nil {
		return nil, err
	}
	out := &client.ReaderNotices{Owed: c.Owed, Sent24h: c.Sent24h, FailingOutlets: []client.FailingOutlet{}}
	for _, o := range []string{"discord", "ntfy", "push", "webhook"} {
		if n := failing[o]; n > 0 {
			out.FailingOutlets = append(out.FailingOutlets, client.FailingOutlet{Outlet: o, Readers: n})
		}
	}
	return out, nil
}

// utcPtr is t in UTC, nil kept.
func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

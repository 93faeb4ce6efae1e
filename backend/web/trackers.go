package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"

	"mangabookmark/backend/trackers"
	"mangabookmark/client"
)

// Trackers is what the settings page's Trackers card asks of the tracker
// sync service (backend/trackersync's Service implements it; cmd gives
// it). Every method that takes a service takes a word of trackerServices.
// An error the Reader can act on (AniList knows no such user, a push
// without a token, a refused token or code) implements Refusal; any other
// is the server's trouble and shows as such.
type Trackers interface {
	List(ctx context.Context, readerID int64) ([]client.Tracker, error)
	Save(ctx context.Context, readerID int64, service, username string, pull, push bool) error
	SetToken(ctx context.Context, readerID int64, service, token string) error
	Forget(ctx context.Context, readerID int64, service string) error
	PullNow(ctx context.Context, readerID int64, service string) error
	Unmatched(ctx context.Context, readerID int64, service string) ([]client.TrackerEntry, error)
	OAuthEnabled(service string) bool
	AuthorizeURL(service, state string) (string, error)
	Exchange(ctx context.Context, readerID int64, service, code string) error
}

// Refusal is an error the Reader may read: Refused is one sentence saying
// what to change. Only such an error's words reach a page; any other error
// is logged and the page says the server is in trouble.
type Refusal interface {
	error
	Refused() string
}

// trackerDeps tidies Deps.Trackers: a nil pointer in the interface (cmd's
// service when the server runs none) is no service, and the Connect
// flow's states default to the service's own (trackersync's States()),
// so a state is made and checked under one key.
func trackerDeps(t Trackers, states *trackers.States) (Trackers, *trackers.States) {
	if t == nil {
		return nil, states
	}
	if v := reflect.ValueOf(t); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil, states
	}
	if s, ok := t.(interface{ States() *trackers.States }); ok && states == nil {
		states = s.States()
	}
	return t, states
}

// refusedReason is err's Reader-facing sentence, when it has one.
func refusedReason(err error) (string, bool) {
	var rf Refusal
	if errors.As(err, &rf) && rf.Refused() != "" {
		return rf.Refused(), true
	}
	return "", false
}

// A tracker's states (client.Tracker.State), as docs/api.md names them.
const (
	trackerOK        = "ok"        // pulls (and pushes, with a token) work
	trackerReconnect = "reconnect" // the token was refused: nothing is pushed until a new one
	trackerFailing   = "failing"   // the last exchanges failed; Error says why
	trackerOff       = "off"       // no user name and no token
)

// trackerServices are the trackers the card shows, in order; the routes
// under /trackers/ are registered for each.
var trackerServices = []string{"anilist", "mangabaka"}

// trackerNames are the trackers' names for a Reader.
var trackerNames = map[string]string{"anilist": "AniList", "mangabaka": "MangaBaka"}

// trackerByToken are the trackers whose lists are private: read with the
// Reader's token, no user name typed (MangaBaka's personal access token;
// trackersync.PullsByToken).
var trackerByToken = map[string]bool{"mangabaka": true}

// maxUnmatchedShown bounds the card's list of entries no Series carries.
const maxUnmatchedShown = 50

// maxTrackerUser bounds a typed user name (AniList's are at most 20
// characters).
const maxTrackerUser = 64

// trackerCard is one tracker on the settings page: its state as the
// service has it, the form's values (what was posted, after a refusal, so
// nothing typed is lost), the reason of a refusal, and the entries of its
// list no Series we read carries.
type trackerCard struct {
	T              client.Tracker
	Name           string // "AniList"
	OAuth          bool   // the Connect button
	ByToken        bool   // the list is read with the token: no user name field
	Sentence       string // the state in words
	Username       string // the user name field
	Pull, Push     bool   // the switches
	Error          string // why the last form was refused
	ErrorForm      string // which form it was: "save", "token", "pull"
	Unmatched      []client.TrackerEntry
	UnmatchedTotal int
	UnmatchedErr   bool // the list could not be read
	Titled         bool // some unmatched entry has a title: the column shows
}

// trackerInput is a posted form's values, shown again with its refusal.
type trackerInput struct {
	service, form, reason string
	username              string
	pull, push            bool
	typed                 bool // the save form: username, pull and push are the posted ones
}

// trackerRoutes registers the Trackers card's forms for each tracker and
// the Connect flow for those that have one (not MangaBaka). They answer 404 when the server runs no tracker sync.
func (h *Handler) trackerRoutes() {
	for _, svc := range trackerServices {
		base := "/trackers/" + svc
		h.handle("POST "+base, h.tracking(svc, h.post(h.saveTracker)))
		h.handle("POST "+base+"/token", h.tracking(svc, h.post(h.trackerToken)))
		h.handle("POST "+base+"/pull", h.tracking(svc, h.post(h.pullTracker)))
		h.handle("POST "+base+"/forget", h.tracking(svc, h.post(h.forgetTracker)))
		if trackerByToken[svc] {
			continue // no Connect flow: the Reader pastes a personal access token
		}
		h.handle("GET "+base+"/connect", h.tracking(svc, h.session(h.connectTracker)))
		h.handle("GET "+base+"/callback", h.tracking(svc, h.session(h.trackerCallback)))
	}
}

type trackerKey struct{}

// tracking answers 404 when the server runs no tracker sync, else runs
// fn with the route's tracker in the context.
func (h *Handler) tracking(service string, fn http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if h.Trackers == nil {
			h.errorPage(w, r, http.StatusNotFound, "Not found", "This server syncs no trackers.")
			return
		}
		fn(w, r.WithContext(context.WithValue(r.Context(), trackerKey{}, service)))
	}
}

func trackerFrom(ctx context.Context) string {
	s, _ := ctx.Value(trackerKey{}).(string)
	return s
}

// trackerCards builds the card of every tracker, with in's values and
// reason on its own.
func (h *Handler) trackerCards(ctx context.Context, readerID int64, in *trackerInput) ([]trackerCard, error) {
	list, err := h.Trackers.List(ctx, readerID)
	if err != nil {
		return nil, err
	}
	out := make([]trackerCard, 0, len(trackerServices))
	for _, svc := range trackerServices {
		t := client.Tracker{Service: svc, State: trackerOff}
		for _, got := range list {
			if got.Service == svc {
				t = got
			}
		}
		c := trackerCard{T: t, Name: trackerNames[svc], OAuth: h.Trackers.OAuthEnabled(svc) && h.TrackerStates != nil,
			ByToken: trackerByToken[svc], Username: t.Username, Pull: t.Pull, Push: t.Push}
		if in != nil && in.service == svc {
			c.Error, c.ErrorForm = in.reason, in.form
			if in.typed {
				c.Username, c.Pull, c.Push = in.username, in.pull, in.push
			}
		}
		if t.Username != "" {
			um, err := h.Trackers.Unmatched(ctx, readerID, svc)
			if err != nil {
				// The card still shows; only this list is missing.
				h.Log.Warn("tracker unmatched entries not read", "service", svc, "reader_id", readerID, "error", err)
				c.UnmatchedErr = true
			}
			c.UnmatchedTotal = len(um)
			c.Unmatched = um[:min(len(um), maxUnmatchedShown)]
			for _, e := range c.Unmatched {
				c.Titled = c.Titled || e.Title != ""
			}
		}
		c.Sentence = trackerSentence(c)
		if p := h.pullSummary(ctx, readerID, c); p != "" && t.State == trackerOK {
			c.Sentence = p + strings.TrimPrefix(c.Sentence, "Working.")
		}
		out = append(out, c)
	}
	return out, nil
}

// pullSummary says what the tracker's last pull did ("Pulled from AniList
// 5 minutes ago: 58 bookmarks moved forward, 3 skipped (two AniList ids),
// 12 entries not on a Site we read."), "" before the first pull recorded.
func (h *Handler) pullSummary(ctx context.Context, readerID int64, c trackerCard) string {
	if c.T.LastPullAt == nil {
		return ""
	}
	a, err := h.Store.TrackerAccount(ctx, readerID, c.T.Service)
	if err != nil || a.LastPullMoved == nil {
		return "" // a tracker sync not backed by this store, or no count yet
	}
	s := fmt.Sprintf("Pulled from %s %s: %s moved forward", c.Name, ago(h.Now(), *c.T.LastPullAt), countOf(*a.LastPullMoved, "bookmark"))
	if n := len(c.T.Skipped); n > 0 {
		s += fmt.Sprintf(", %d skipped (two %s ids)", n, c.Name)
	}
	if c.UnmatchedTotal > 0 {
		s += fmt.Sprintf(", %s not on a Site we read", countOf(c.UnmatchedTotal, "entry"))
	}
	return s + "."
}

// countOf is "1 bookmark", "58 bookmarks", "2 entries".
func countOf(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	if strings.HasSuffix(unit, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(unit, "y"))
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

// trackerSentence says a tracker's state in words.
func trackerSentence(c trackerCard) string {
	t := c.T
	switch t.State {
	case trackerOK:
		s := "Working."
		if t.Pull {
			s += " Your " + c.Name + " list is read regularly and moves your Progress forward, never back."
		}
		if t.Push && t.Connected {
			s += " What you read here is written to " + c.Name + ", never lowering its count."
		}
		return s
	case trackerReconnect:
		if c.ByToken {
			return c.Name + " refused the token (it expired or was revoked): nothing is read from or written to " + c.Name +
				" until you paste a new token."
		}
		return c.Name + " refused the token (it expired or was revoked): nothing is written to " + c.Name +
			" until you connect again or paste a new token. Reading your list by user name goes on."
	case trackerFailing:
		return "The last exchanges with " + c.Name + " failed; they are tried again later."
	case trackerOff, "":
		if c.ByToken {
			return "Off: paste a " + c.Name + " personal access token to read your library from there and write to it."
		}
		return "Off: type your " + c.Name + " user name to read your list from there."
	}
	return "State: " + t.State + "."
}

// showTrackerRefusal shows the settings page again with the form's
// values and why it was refused: 400 for the Reader's to fix, 503 when
// the server or the tracker was in trouble.
func (h *Handler) showTrackerRefusal(w http.ResponseWriter, r *http.Request, in trackerInput, err error) {
	status := http.StatusBadRequest
	if err != nil {
		reason, ok := refusedReason(err)
		if !ok {
			h.Log.Warn("tracker form failed", "service", in.service, "form", in.form, "error", err)
			w.Header().Set("Retry-After", "5")
			status = http.StatusServiceUnavailable
			reason = "Not done: the server could not reach " + trackerNames[in.service] + " or its database just now. Try again shortly."
		}
		in.reason = reason
	}
	h.showSettings(w, r, status, &noticesView{}, &in)
}

// trackerDone answers a form that worked: 303 to the settings page's
// card, which says what happened (flash).
func trackerDone(w http.ResponseWriter, r *http.Request, done string) {
	seeOther(w, r, "/settings?tracker="+trackerFrom(r.Context())+"&done="+done+"#trackers")
}

// trackerFlashes are the sentences a finished form's redirect may show
// (its done parameter picks one; nothing of the URL is echoed).
var trackerFlashes = map[string]string{
	"saved":     "%s settings saved.",
	"token":     "%s accepted the token: what you read here is written there when Push is on.",
	"pull":      "A read of your %s list was asked for; it runs within a minute, and this card then says what it moved.",
	"forgot":    "%s forgotten: this server no longer holds your user name or token there.",
	"connected": "Connected to %s: what you read here is written there when Push is on.",
}

// trackerFlash is the sentence for a redirect's query ("" for none).
func trackerFlash(r *http.Request) string {
	q := r.URL.Query()
	name, f := trackerNames[q.Get("tracker")], trackerFlashes[q.Get("done")]
	if name == "" || f == "" {
		return ""
	}
	return strings.Replace(f, "%s", name, 1)
}

func (h *Handler) saveTracker(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	in := trackerInput{service: trackerFrom(r.Context()), form: "save", typed: true,
		username: strings.TrimSpace(r.PostFormValue("username")),
		pull:     r.PostFormValue("pull") == "on", push: r.PostFormValue("push") == "on"}
	if trackerByToken[in.service] {
		in.username = "" // the account is the token's; the form has no user name
	}
	switch {
	case len(in.username) > maxTrackerUser || !utf8.ValidString(in.username) || strings.ContainsFunc(in.username, unicode.IsControl):
		in.reason = "A user name is at most 64 characters, with no line breaks: type it as " + trackerNames[in.service] + " shows it."
	case strings.ContainsFunc(in.username, unicode.IsSpace):
		in.reason = "A user name has no spaces: type it as " + trackerNames[in.service] + " shows it on your profile."
	case in.pull && in.username == "" && !trackerByToken[in.service]:
		in.reason = "Reading your list needs your " + trackerNames[in.service] + " user name."
	}
	if in.reason != "" {
		h.showTrackerRefusal(w, r, in, nil)
		return
	}
	if err := h.Trackers.Save(r.Context(), v.ReaderID, in.service, in.username, in.pull, in.push); err != nil {
		h.showTrackerRefusal(w, r, in, err)
		return
	}
	trackerDone(w, r, "saved")
}

// maxPastedToken bounds a pasted token (an AniList token is about a
// kilobyte).
const maxPastedToken = 8 << 10

// tokenChars reports whether s could be a token: base64url and the JWT's
// dots, nothing else.
func tokenChars(s string) bool {
	return strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") == ""
}

func (h *Handler) trackerToken(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	in := trackerInput{service: trackerFrom(r.Context()), form: "token"}
	// The token is never shown again, even refused: the page says so.
	token := strings.TrimSpace(r.PostFormValue("token"))
	name := trackerNames[in.service]
	switch {
	case token == "":
		in.reason = "Paste the token " + name + " showed you first."
	case len(token) > maxPastedToken || !tokenChars(token):
		in.reason = "That is not a " + name + " token: paste the whole long text " + name + " showed, and nothing else. Paste it again."
	}
	if in.reason != "" {
		h.showTrackerRefusal(w, r, in, nil)
		return
	}
	if err := h.Trackers.SetToken(r.Context(), v.ReaderID, in.service, token); err != nil {
		h.showTrackerRefusal(w, r, in, err)
		return
	}
	trackerDone(w, r, "token")
}

func (h *Handler) pullTracker(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	in := trackerInput{service: trackerFrom(r.Context()), form: "pull"}
	if err := h.Trackers.PullNow(r.Context(), v.ReaderID, in.service); err != nil {
		h.showTrackerRefusal(w, r, in, err)
		return
	}
	trackerDone(w, r, "pull")
}

func (h *Handler) forgetTracker(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	in := trackerInput{service: trackerFrom(r.Context()), form: "forget"}
	if err := h.Trackers.Forget(r.Context(), v.ReaderID, in.service); err != nil {
		h.showTrackerRefusal(w, r, in, err)
		return
	}
	trackerDone(w, r, "forgot")
}

package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/trackers"
	"mangabookmark/backend/trackers/anilist/anilisttest"
	"mangabookmark/backend/web"
	"mangabookmark/client"
)

// refusal is the fake's Reader-facing refusal, as trackersync.Refusal is.
type refusal struct{ reason string }

func (r *refusal) Error() string   { return "trackersync: " + r.reason }
func (r *refusal) Refused() string { return r.reason }

// fakeTrackers is the tracker sync service as the pages see it: one
// tracker per Reader in memory, with refusals and failures on demand. Its
// Connect half is real HTTP against the AniList stand-in: AuthorizeURL
// points at the stand-in's authorize page and Exchange posts the code to
// its token endpoint, as the service's anilist.OAuth does.
type fakeTrackers struct {
	mu         sync.Mutex
	t          map[int64]client.Tracker
	tokens     map[int64]string
	unmatched  []client.TrackerEntry
	unknown    string // a user name Save refuses
	fail       error  // every call but List fails with it
	oauth      bool
	origin     string // the stand-in
	redirect   string // the callback the stand-in expects
	calls      map[string]int
	lastPulled int64
}

func newFakeTrackers() *fakeTrackers {
	return &fakeTrackers{t: map[int64]client.Tracker{}, tokens: map[int64]string{}, calls: map[string]int{}}
}

func (f *fakeTrackers) count(call string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[call]
}

func (f *fakeTrackers) get(readerID int64) client.Tracker {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.t[readerID]
}

func (f *fakeTrackers) set(readerID int64, t client.Tracker) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.t[readerID] = t
}

func (f *fakeTrackers) begin(call string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls[call]++
	return f.fail
}

func (f *fakeTrackers) List(_ context.Context, readerID int64) ([]client.Tracker, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	t, ok := f.t[readerID]
	if !ok {
		return nil, nil
	}
	return []client.Tracker{t}, nil
}

func (f *fakeTrackers) Save(_ context.Context, readerID int64, service, username string, pull, push bool) error {
	if err := f.begin("save"); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if username == f.unknown {
		return &refusal{"AniList knows no user " + username + "."}
	}
	t := f.t[readerID]
	if push && !t.Connected {
		return &refusal{"Push needs a token: connect AniList or paste a token first."}
	}
	t.Service, t.Username, t.Pull, t.Push, t.State = service, username, pull, push, "ok"
	f.t[readerID] = t
	return nil
}

func (f *fakeTrackers) SetToken(_ context.Context, readerID int64, service, token string) error {
	if err := f.begin("token"); err != nil {
		return err
	}
	if token == "refused.token" {
		return &refusal{"AniList refused that token: paste a new one."}
	}
	f.connect(readerID, service, token)
	return nil
}

func (f *fakeTrackers) connect(readerID int64, service, token string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := f.t[readerID]
	t.Service, t.Connected, t.State = service, true, "ok"
	f.t[readerID] = t
	f.tokens[readerID] = token
}

func (f *fakeTrackers) Forget(_ context.Context, readerID int64, _ string) error {
	if err := f.begin("forget"); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.t, readerID)
	delete(f.tokens, readerID)
	return nil
}

func (f *fakeTrackers) PullNow(_ context.Context, readerID int64, _ string) error {
	if err := f.begin("pull"); err != nil {
		return err
	}
	if f.get(readerID).Username == "" {
		return &refusal{"Pull needs your AniList user name."}
	}
	f.mu.Lock()
	f.lastPulled = readerID
	f.mu.Unlock()
	return nil
}

func (f *fakeTrackers) Unmatched(context.Context, int64, string) ([]client.TrackerEntry, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.unmatched, nil
}

func (f *fakeTrackers) OAuthEnabled(service string) bool { return f.oauth && service == "anilist" }

func (f *fakeTrackers) AuthorizeURL(_, state string) (string, error) {
	v := url.Values{"client_id": {"1"}, "redirect_uri": {f.redirect}, "response_type": {"code"}, "state": {state}}
	return f.origin + "/api/v2/oauth/authorize?" + v.Encode(), nil
}

// Exchange trades the code at the stand-in's token endpoint, with the
// body AniList documents.
func (f *fakeTrackers) Exchange(ctx context.Context, readerID int64, service, code string) error {
	if err := f.begin("exchange"); err != nil {
		return err
	}
	body, _ := json.Marshal(map[string]string{"grant_type": "authorization_code", "client_id": "1",
		"client_secret": "standin-secret", "redirect_uri": f.redirect, "code": code})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, f.origin+"/api/v2/oauth/token", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return &refusal{"AniList refused the authorization: start Connect again."}
	}
	var v struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil || v.AccessToken == "" {
		return errors.New("no access_token")
	}
	f.connect(readerID, service, v.AccessToken)
	return nil
}

var _ web.Trackers = (*fakeTrackers)(nil)

// trackerWorld is the fixture with the fake tracker sync, the Connect
// flow's states on the fixture's clock, and the AniList stand-in that
// approves every authorization as "aki".
type trackerWorld struct {
	*fixture
	tr     *fakeTrackers
	anilst *anilisttest.Server
}

func newTrackerWorld(t testing.TB, oauth bool) *trackerWorld {
	t.Helper()
	tr := newFakeTrackers()
	tr.oauth = oauth
	var states *trackers.States
	f := newFixtureWith(t, "", func(d *web.Deps) {
		var err error
		if states, err = trackers.NewStates(trackers.StatesConfig{TokenKey: []byte(testKey), Now: d.Now}); err != nil {
			t.Fatal(err)
		}
		d.Trackers, d.TrackerStates = tr, states
	})
	tr.redirect = f.srv.URL + "/trackers/anilist/callback"
	al := anilisttest.New(anilisttest.Config{ClientSecret: "standin-secret", RedirectURL: tr.redirect, ApproveAs: "aki"})
	al.AddUser("aki")
	as := httptest.NewServer(al)
	t.Cleanup(as.Close)
	tr.origin = as.URL
	return &trackerWorld{fixture: f, tr: tr, anilst: al}
}

// readerID is the fixture's Reader (admintest's Reader 2).
const readerID = 2

// someUnmatched are n entries of a list no Series carries.
func someUnmatched(n int) []client.TrackerEntry {
	out := make([]client.TrackerEntry, n)
	for i := range out {
		out[i] = client.TrackerEntry{MediaID: strconv.Itoa(900000 + i), Title: "Elsewhere " + string(rune('A'+i%26)), Progress: i}
	}
	return out
}

// lastPull is a time for the card.
var lastPull = time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC)

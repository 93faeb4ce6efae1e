package readernotice_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/readernotice"
	"mangabookmark/backend/readernotice/netguard"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
	"mangabookmark/backend/store/storetest"
)

// clock is the tests' time seam.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// hook is a local webhook receiver recording every POST.
type hook struct {
	*httptest.Server
	mu     sync.Mutex
	got    []received
	status int // answer; 0: 204
}

type received struct {
	Header http.Header
	Body   []byte
}

func newHook(t *testing.T) *hook {
	h := &hook{}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		h.mu.Lock()
		h.got = append(h.got, received{Header: r.Header.Clone(), Body: b})
		st := h.status
		h.mu.Unlock()
		if st == 0 {
			st = http.StatusNoContent
		}
		w.WriteHeader(st)
	}))
	t.Cleanup(h.Close)
	return h
}

func (h *hook) received() []received {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]received(nil), h.got...)
}

func (h *hook) setStatus(s int) { h.mu.Lock(); h.status = s; h.mu.Unlock() }

// webhookBody is the contract's webhook payload.
type webhookBody struct {
	Event  string `json:"event"`
	Reader struct {
		DiscordID string `json:"discord_id"`
		Name      string `json:"name"`
	} `json:"reader"`
	Chapters []readernotice.Chapter `json:"chapters"`
	Late     []readernotice.Late    `json:"late"`
}

func decode(t *testing.T, b []byte) webhookBody {
	t.Helper()
	var w webhookBody
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatalf("webhook body %q: %v", b, err)
	}
	return w
}

// world is one database with a notice service on a fake clock.
type world struct {
	t   *testing.T
	ctx context.Context
	st  *store.Store
	clk *clock
	svc *readernotice.Service
}

func newWorld(t *testing.T, mod ...func(*readernotice.Config)) *world {
	t.Helper()
	w := &world{t: t, ctx: context.Background(), st: dbtest.New(t),
		clk: &clock{now: time.Now().Add(time.Minute).Truncate(time.Second)}}
	w.svc = w.service(w.st, mod...)
	return w
}

func (w *world) service(st *store.Store, mod ...func(*readernotice.Config)) *readernotice.Service {
	cfg := readernotice.Config{Store: st, Now: w.clk.Now, Key: []byte("0123456789abcdef0123456789abcdef"),
		BaseURL: "http://mb.example", Guard: netguard.Guard{AllowNets: netguard.Loopback(), Timeout: 2 * time.Second}}
	for _, m := range mod {
		m(&cfg)
	}
	svc, err := readernotice.New(cfg)
	if err != nil {
		w.t.Fatal(err)
	}
	return svc
}

// reader makes a Reader with a webhook pointing at h and the digest
// window digestS.
func (w *world) reader(discordID string, h *hook, digestS int) int64 {
	w.t.Helper()
	r, err := w.st.UpsertReader(w.ctx, discordID, "Reader "+discordID, nil)
	if err != nil {
		w.t.Fatal(err)
	}
	c := readernotice.SettingsChange{DigestS: &digestS}
	if h != nil {
		u := h.URL + "/hook/" + discordID
		c.WebhookURL = &u
	}
	if _, err := w.svc.UpdateSettings(w.ctx, r.ID, c); err != nil {
		w.t.Fatal(err)
	}
	return r.ID
}

func (w *world) bookmark(reader int64, site, id string) {
	w.t.Helper()
	if _, err := w.st.AddBookmark(w.ctx, reader, site, id, "https://"+site+".example/"+id); err != nil {
		w.t.Fatal(err)
	}
	storetest.SetBookmarks(w.ctx, w.t, w.st, storetest.BookmarkSet{ReaderID: reader, Site: site, IDs: []string{id}, CreatedAt: storetest.At(time.Now().Add(-24 * time.Hour))})
}

func (w *world) exec(q string, args ...any) {
	w.t.Helper()
	if _, err := w.st.Pool().Exec(w.ctx, q, args...); err != nil {
		w.t.Fatalf("%s: %v", q, err)
	}
}

func (w *world) count(q string, args ...any) int {
	w.t.Helper()
	var n int
	if err := w.st.Pool().QueryRow(w.ctx, q, args...).Scan(&n); err != nil {
		w.t.Fatalf("%s: %v", q, err)
	}
	return n
}

// read records a good read of number at the clock's now.
func (w *world) read(site, id, number string) store.OKResult {
	w.t.Helper()
	r, err := w.st.RecordOK(w.ctx, site, id, store.ReadFacts{Title: "Series " + id, Number: number,
		ChTitle: "Ch " + number, ChURL: "https://" + site + ".example/" + id + "/" + number}, w.clk.Now())
	if err != nil {
		w.t.Fatal(err)
	}
	return r
}

func (w *world) run() {
	w.t.Helper()
	if err := w.svc.RunOnce(w.ctx); err != nil {
		w.t.Fatal(err)
	}
}

func storeFacts(title, number string) store.ReadFacts {
	return store.ReadFacts{Title: title, Number: number, ChTitle: "Ch " + number, ChURL: "https://mangapill.example/a/" + number}
}

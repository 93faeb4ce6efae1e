package readernotice_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"mangabookmark/backend/readernotice"
	"mangabookmark/backend/store"
)

// ntfyServer answers a publish as ntfy's server does by default
// (binwiederhier/ntfy at 81a486adc11fe24efcbedefb28ae946028597c2f):
// util/peek.go's Peek reads at most message-size-limit bytes of the body
// (server/config.go: DefaultMessageSizeLimit = 4096) and says the limit was
// reached when it read all of them; server/server.go's handlePublishBody
// takes the body as the message only when the limit was not reached and the
// bytes are UTF-8 (its case 6), trimmed of spaces. Anything else is an
// attachment (case 7), which a server without an attachment cache refuses:
// 400, error 40014 "invalid request: attachments not allowed".
type ntfyServer struct {
	*httptest.Server
	mu  sync.Mutex
	got []ntfyMessage
}

type ntfyMessage struct {
	Header  http.Header
	Message string
}

const ntfyMessageSizeLimit = 4096 // ntfy's DefaultMessageSizeLimit

func newNtfyServer(t *testing.T) *ntfyServer {
	n := &ntfyServer{}
	n.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		peeked := make([]byte, ntfyMessageSizeLimit)
		read, _ := io.ReadFull(r.Body, peeked)
		if read == ntfyMessageSizeLimit || !utf8.Valid(peeked[:read]) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"code":40014,"http":400,"error":"invalid request: attachments not allowed","link":"https://ntfy.sh/docs/config/#attachments"}`)
			return
		}
		n.mu.Lock()
		n.got = append(n.got, ntfyMessage{Header: r.Header.Clone(), Message: strings.TrimSpace(string(peeked[:read]))})
		n.mu.Unlock()
		_, _ = io.WriteString(w, `{"id":"x","event":"message"}`)
	}))
	t.Cleanup(n.Close)
	return n
}

func (n *ntfyServer) messages() []ntfyMessage {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]ntfyMessage(nil), n.got...)
}

// A Digest of twelve chapters with long Site titles is over ntfy's 4096
// bytes: ntfy takes it as a message only when the body is under that, so
// the notice lists the chapters that fit and says how many more, with
// Click opening the library.
func TestNtfyDigestStaysUnderNtfysMessageLimit(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := newNtfyServer(t)
	r, _ := w.st.UpsertReader(w.ctx, "7", "Bo", nil)
	u := n.URL + "/mytopic"
	if _, err := w.svc.UpdateSettings(w.ctx, r.ID, readernotice.SettingsChange{NtfyURL: &u, DigestS: new(int)}); err != nil {
		t.Fatal(err)
	}
	var lines []string
	full := 0
	for i := range 12 {
		id := fmt.Sprintf("s%02d", i)
		title := fmt.Sprintf("Kōgeki no Kyojin %02d:", i) + strings.Repeat(" the long subtitle a Site gives", 8)
		ch := "The chapter's own long title, " + strings.Repeat("ō", 60) + strings.Repeat(" and more", 14)
		url := "https://mangapill.example/chapters/" + id + "/" + strings.Repeat("x", 120) + "/2"
		w.bookmark(r.ID, "mangapill", id)
		for _, num := range []string{"1", "2"} {
			if _, err := w.st.RecordOK(w.ctx, "mangapill", id, store.ReadFacts{Title: title, Number: num, ChTitle: ch, ChURL: url}, w.clk.Now()); err != nil {
				t.Fatal(err)
			}
		}
		line := title + " 2 (" + ch + "): " + url
		lines = append(lines, line)
		full += len(line) + 1
	}
	if full <= ntfyMessageSizeLimit {
		t.Fatalf("the Digest is %d bytes, not over ntfy's limit: the test proves nothing", full)
	}
	w.run()
	got := n.messages()
	if len(got) != 1 {
		t.Fatalf("ntfy took %d messages, want 1 (a body of %d bytes is refused as an attachment)", len(got), full)
	}
	m := got[0]
	t.Logf("a Digest of %d bytes went as an ntfy message of %d bytes", full, len(m.Message))
	if w.count(`SELECT count(*) FROM notice_deliveries WHERE reader_id = $1 AND sent_at IS NOT NULL`, r.ID) != 1 {
		t.Fatal("the delivery is not marked sent")
	}
	body := strings.Split(m.Message, "\n")
	last := body[len(body)-1]
	var more int
	if _, err := fmt.Sscanf(last, "… and %d more: http://mb.example/", &more); err != nil || !strings.HasSuffix(last, ": http://mb.example/") {
		t.Fatalf("the last line %q does not say how many more, with the library", last)
	}
	listed := body[:len(body)-1]
	if len(listed) == 0 || len(listed)+more != 12 {
		t.Fatalf("%d chapters listed and %d more, want 12 in all", len(listed), more)
	}
	sent := map[string]bool{}
	for _, l := range lines {
		sent[l] = true
	}
	for _, l := range listed {
		if !sent[l] {
			t.Errorf("a listed line is not a whole chapter line: %q", l)
		}
	}
	if c := m.Header.Get("Click"); c != "http://mb.example/" {
		t.Errorf("Click %q, want the library when chapters are left out", c)
	}
}

// TextWithin keeps whole chapter lines and the late part, at any bound.
func TestTextWithinKeepsWholeLinesAndTheLatePart(t *testing.T) {
	t.Parallel()
	more := func(n int) string { return fmt.Sprintf("… and %d more", n) }
	d := readernotice.Digest{Late: []readernotice.Late{{Site: "asura", State: "paused"}}}
	for i := range 5 {
		d.Chapters = append(d.Chapters, readernotice.Chapter{Title: "Zoë", Number: fmt.Sprint(i), URL: "https://x.example/" + strings.Repeat("ō", 20)})
	}
	all := d.Text()
	late := strings.TrimRight(d.LateText(), "\n")
	for limit := len(late) + len(more(5)) + 1; limit <= len(all)+1; limit++ {
		got, left := d.TextWithin(limit, more)
		if len(got) > limit || !utf8.ValidString(got) || !strings.HasSuffix(got, late) {
			t.Fatalf("limit %d: %d bytes %q", limit, len(got), got)
		}
		if (left == 0) != (limit >= len(all)) {
			t.Fatalf("limit %d of %d: %d left out", limit, len(all), left)
		}
		lines := strings.Split(got, "\n")
		if left > 0 && (len(lines) != 5-left+2 || lines[len(lines)-2] != more(left)) {
			t.Fatalf("limit %d: %q does not list %d lines and say %d more", limit, got, 5-left, left)
		}
		for _, l := range lines[:5-left] {
			if !strings.Contains(all, l+"\n") {
				t.Fatalf("limit %d: %q is no whole line of the Digest", limit, l)
			}
		}
	}
	// A bound too small for even the late part cuts on a rune boundary.
	if got, left := d.TextWithin(20, more); len(got) > 20 || !utf8.ValidString(got) || left != 5 {
		t.Fatalf("a tiny bound: %q, %d left", got, left)
	}
}

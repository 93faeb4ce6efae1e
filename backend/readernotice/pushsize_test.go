package readernotice_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"mangabookmark/backend/readernotice"
	"mangabookmark/backend/store"
)

// mozillaAndroidLimit is the largest body Mozilla's push service takes for
// Firefox on Android; above it answers 413 (webpush-go issue 23). RFC 8030
// section 7.2 lets any push service refuse more than 4096 bytes.
const mozillaAndroidLimit = 3070

// A Web Push body is padded only up to the next 256 bytes, never to 4096,
// and the largest Digest stays under what Mozilla's service takes for
// Firefox on Android. The sizes are measured on the wire; the browser's
// decryptor (pushrecv_test.go, written from RFC 8291) reads each body.
func TestPushBodiesArePaddedLittleAndStayUnderMozillasLimit(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ps := newPushService(t)
	ps.setLimit(mozillaAndroidLimit)
	r, b, _ := w.pushReader("19", ps)
	w.read("mangapill", "a", "1")
	w.read("mangapill", "a", "2")
	w.run()
	// The largest Digest: thirty chapters, every title at the store's
	// 300-character cut in characters JSON escapes or UTF-8 widens, every
	// URL 2 kB.
	long := strings.Repeat("<&>é", 75)
	for i := range 30 {
		id := fmt.Sprint("s", i)
		w.bookmark(r, "mangapill", id)
		for _, n := range []string{"1", "2"} {
			if _, err := w.st.RecordOK(w.ctx, "mangapill", id, store.ReadFacts{Title: long, Number: n, ChTitle: long,
				ChURL: "https://mangapill.example/" + strings.Repeat(n, 2000)}, w.clk.Now()); err != nil {
				t.Fatal(err)
			}
		}
	}
	w.run()
	got := ps.received()
	if len(got) != 2 {
		t.Fatalf("%d messages taken, want 2; deliveries failing: %d", len(got),
			w.count(`SELECT count(*) FROM notice_deliveries WHERE last_error <> ''`))
	}
	for i, want := range []string{"New chapter: Series a 2", "30 new chapters"} {
		body := got[i].Body
		plain, err := b.decrypt(body)
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		var msg readernotice.PushMessage
		if err := json.Unmarshal(plain, &msg); err != nil || !strings.HasPrefix(msg.Title, want) {
			t.Fatalf("message %d: %q %v", i, plain, err)
		}
		// 86 bytes of header, the plaintext, its 0x02 delimiter, the
		// 16-byte tag: padded up to the next multiple of 256 at most.
		least := 86 + len(plain) + 1 + 16
		t.Logf("message %d: %d bytes of JSON, %d bytes encrypted", i, len(plain), len(body))
		if len(body) < least || len(body) >= least+256 || len(body) > readernotice.PushBodyMax || len(body) >= mozillaAndroidLimit {
			t.Errorf("message %d: %d bytes encrypted for %d of plaintext, want the next 256 at most and under %d",
				i, len(body), len(plain), mozillaAndroidLimit)
		}
	}
	if n := w.count(`SELECT count(*) FROM notice_deliveries WHERE outlet = 'push' AND sent_at IS NOT NULL`); n != 2 {
		t.Fatalf("%d push deliveries sent, want 2", n)
	}
}

package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode"
)

// The flash: one short sentence saying what the Reader's last act did
// ("Marked read up to ch. 120: Title", "Removed Title · Undo"), shown once
// by the next page in the layout (role="status"). It travels in a cookie
// signed under a key only the session's server side can derive (from the
// session id, as the csrf field is), so another session, site or script
// cannot put words on the page; the template escapes it. It carries a
// Series title and numbers, never a secret, and lives a minute.
// docs/adr/0033-undo-of-remove.md.

const (
	flashCookie = "mb_flash"
	flashTTL    = time.Minute
	// maxFlashTitle bounds the title a sentence quotes, in characters.
	maxFlashTitle = 80
	// maxBack bounds a form's "back" address.
	maxBack = 2048
)

// flash is the cookie's content: the sentence, the Undo hold's token when
// the act was a Remove, and when it stops counting.
type flash struct {
	Text string `json:"t"`
	Undo string `json:"u,omitempty"`
	Exp  int64  `json:"e"`
}

// flashView is the flash as the layout shows it: the Undo form posts the
// token with this page as its back.
type flashView struct {
	Text, Undo, Back, CSRF string
}

// flashKeyFor derives the session's flash signing key from its id.
func flashKeyFor(sessionID string) []byte {
	sum := sha256.Sum256([]byte("mangabookmark flash\x00" + sessionID))
	return sum[:]
}

func flashMAC(key, payload []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(payload)
	return m.Sum(nil)
}

// setFlash sets the flash the next page of this session shows.
func (h *Handler) setFlash(w http.ResponseWriter, r *http.Request, text, undo string) {
	v := viewerFrom(r.Context())
	if v == nil || len(v.flashKey) == 0 {
		return
	}
	payload, err := json.Marshal(flash{Text: text, Undo: undo, Exp: h.Now().Add(flashTTL).Unix()})
	if err != nil {
		return
	}
	val := base64.RawURLEncoding.EncodeToString(payload) + "." + base64.RawURLEncoding.EncodeToString(flashMAC(v.flashKey, payload))
	http.SetCookie(w, &http.Cookie{Name: flashCookie, Value: val, Path: "/", MaxAge: int(flashTTL / time.Second),
		HttpOnly: true, Secure: h.secure(), SameSite: http.SameSiteLaxMode})
}

// takeFlash reads the request's flash, if its signature is this session's
// and it is still fresh, and clears the cookie so it shows once.
func (h *Handler) takeFlash(w http.ResponseWriter, r *http.Request, v *viewer) *flashView {
	c, err := r.Cookie(flashCookie)
	if err != nil || v == nil || len(v.flashKey) == 0 {
		return nil
	}
	http.SetCookie(w, &http.Cookie{Name: flashCookie, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, Secure: h.secure(), SameSite: http.SameSiteLaxMode})
	enc, sig, ok := strings.Cut(c.Value, ".")
	if !ok {
		return nil
	}
	payload, err1 := base64.RawURLEncoding.DecodeString(enc)
	mac, err2 := base64.RawURLEncoding.DecodeString(sig)
	if err1 != nil || err2 != nil || !hmac.Equal(mac, flashMAC(v.flashKey, payload)) {
		return nil
	}
	var f flash
	if json.Unmarshal(payload, &f) != nil || f.Text == "" || h.Now().Unix() > f.Exp {
		return nil
	}
	back := "/"
	if r.Method == http.MethodGet {
		back = safeBack(r.URL.RequestURI())
	}
	return &flashView{Text: f.Text, Undo: f.Undo, Back: back, CSRF: v.CSRF}
}

// quoted is a title as a flash quotes it: no control characters, at most
// maxFlashTitle characters.
func quoted(title string) string {
	t := strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, strings.TrimSpace(title))
	if rs := []rune(t); len(rs) > maxFlashTitle {
		t = string(rs[:maxFlashTitle-1]) + "…"
	}
	return t
}

// safeBack is a form's "back" when it is a path on this host: it starts
// with one "/", holds no backslash, control character or scheme, parses
// as a path with no host, is one of readerPages and is at most maxBack
// bytes; anything else is "/". No address elsewhere can be reached through it (an open redirect).
func safeBack(b string) string {
	if b == "" || len(b) > maxBack || b[0] != '/' || strings.HasPrefix(b, "//") || strings.ContainsAny(b, "\\") {
		return "/"
	}
	for _, r := range b {
		if r < 0x21 || r == 0x7f || (r >= 0x80 && unicode.IsControl(r)) || unicode.IsSpace(r) {
			return "/"
		}
	}
	u, err := url.Parse(b)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" ||
		!strings.HasPrefix(u.Path, "/") || strings.HasPrefix(u.Path, "//") {
		return "/"
	}
	// A path that decodes to "//" or a backslash is the same trick, escaped.
	if strings.HasPrefix(u.EscapedPath(), "//") || strings.Contains(u.Path, "\\") {
		return "/"
	}
	for _, seg := range strings.Split(u.Path, "/") {
		if seg == "." || seg == ".." {
			return "/" // a path that climbs out of the page it names
		}
	}
	for _, p := range readerPages {
		if u.Path == p || strings.HasPrefix(u.Path, p+"/") {
			return b
		}
	}
	return "/"
}

// readerPages are the Reader's pages an act may return to (with what
// follows a "/" under them): not the Owner's, the API or a file.
var readerPages = []string{"/", "/series", "/works", "/settings", "/notices", "/import", "/updates"}

// readerBack is where a Reader's act returns to: the form's "back" (the
// page, filter, sort and page number it came from) when safeBack keeps
// it, else the library.
func readerBack(r *http.Request) string {
	return safeBack(r.PostFormValue("back"))
}

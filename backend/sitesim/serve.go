package sitesim

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
)

const (
	kindJSON = "json"
	kindHTML = "html"
	// ClearanceCookie is the cookie the JS challenge's script sets; with it
	// (value "passed") the real page is served.
	ClearanceCookie = "sim_clearance"
	oversize        = 6 << 20
)

// open runs the steps every Series request shares: an unknown or Gone
// Series gets the Site's not-found answer (notFound), a failure mode its
// scripted answer (misbehave). Behaviour is looked up by the canonical id,
// whatever case or slug the URL used. ok is false when the request has been
// answered.
func (s *Sim) open(w http.ResponseWriter, r *http.Request, site, id, kind string, notFound func()) (x simSeries, b Behavior, ok bool) {
	i, ok := s.lookup(site, id)
	if !ok {
		notFound()
		return x, b, false
	}
	b = s.behavior(site, seriesID(site, i))
	if s.misbehave(w, r, b, kind) {
		return x, b, false
	}
	if b.Mode == Gone {
		notFound()
		return x, b, false
	}
	return s.series(site, i, b), b, true
}

// misbehave answers for every failure mode that does not need the Site's
// own format. It reports whether it answered; Slow returns false after its
// delay, and Steady, Gone and LayoutChanged are left to the renderer.
func (s *Sim) misbehave(w http.ResponseWriter, r *http.Request, b Behavior, kind string) bool {
	switch b.Mode {
	case ServerError:
		http.Error(w, "upstream connect error or disconnect/reset before headers", http.StatusServiceUnavailable)
	case Slow:
		return !s.wait(r.Context(), b.Delay)
	case Hang:
		select {
		case <-r.Context().Done():
		case <-s.done:
		}
	case Oversized:
		w.Header().Set("Content-Type", contentType(kind))
		w.Header().Set("Content-Length", strconv.Itoa(oversize))
		chunk := bytes.Repeat([]byte(" "), 64<<10)
		for n := 0; n < oversize; n += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				break
			}
		}
	case Endless:
		w.Header().Set("Content-Type", contentType(kind))
		chunk := bytes.Repeat([]byte("<p>more</p>\n"), 4096)
		fl, _ := w.(http.Flusher)
		for {
			if _, err := w.Write(chunk); err != nil {
				break
			}
			if fl != nil {
				fl.Flush()
			}
			select {
			case <-r.Context().Done():
				return true
			case <-s.done:
				return true
			default:
			}
		}
	case RedirectAway:
		http.Redirect(w, r, "https://elsewhere.invalid/landing", http.StatusFound)
	case RedirectLoop:
		n, _ := strconv.Atoi(r.URL.Query().Get("loop"))
		u := *r.URL
		q := u.Query()
		q.Set("loop", strconv.Itoa(n+1))
		u.RawQuery = q.Encode()
		http.Redirect(w, r, u.RequestURI(), http.StatusFound)
	case HugeLength:
		w.Header().Set("Content-Type", contentType(kind))
		w.Header().Set("Content-Length", strconv.FormatInt(1<<40, 10))
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte("{"))
	case Malformed:
		w.Header().Set("Content-Type", contentType(kind))
		if kind == kindJSON {
			_, _ = w.Write([]byte(`{"result":"ok","data":[{"id":"`))
		} else {
			_, _ = w.Write([]byte("<html><body><div class=\"container\"><a href=\"/chap"))
		}
	case WrongType:
		w.Header().Set("Content-Type", "application/octet-stream")
		_, _ = w.Write([]byte{0, 1, 2, 3, 0xff, 0xfe})
	case Forbidden:
		http.Error(w, "Forbidden", http.StatusForbidden)
	case RateLimited:
		w.Header().Set("Retry-After", "60")
		http.Error(w, "Too Many Requests", http.StatusTooManyRequests)
	case Challenge:
		writeChallenge(w, challengePlain)
	case JSChallenge:
		if c, err := r.Cookie(ClearanceCookie); err == nil && c.Value == "passed" {
			return false
		}
		writeChallenge(w, challengeScript)
	case JSChallengeStuck:
		writeChallenge(w, challengeStuck)
	default:
		return false
	}
	return true
}

func contentType(kind string) string {
	if kind == kindJSON {
		return "application/json"
	}
	return "text/html; charset=utf-8"
}

const challengeHead = `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title>
<meta http-equiv="Content-Type" content="text/html; charset=UTF-8"><meta name="robots" content="noindex,nofollow"></head>
<body><div class="main-wrapper" role="main"><div class="main-content">
<h1 class="zone-name-title h1">Checking your browser</h1>
<h2 id="challenge-error-title" class="h2">Verifying you are human. This may take a few seconds.</h2>
<noscript><div>Enable JavaScript and cookies to continue</div></noscript></div></div>
`

const (
	challengePlain = challengeHead + `<script src="/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1"></script></body></html>`
	// The script stands in for Cloudflare's: after a moment it sets the
	// clearance cookie and reloads, so only a client that runs scripts and
	// keeps cookies gets through.
	challengeScript = challengeHead + `<script>window._cf_chl_opt={cType:'managed',cFPWv:'g'};
setTimeout(function(){document.cookie="` + ClearanceCookie + `=passed; path=/; SameSite=Lax";location.reload();},300);</script></body></html>`
	challengeStuck = challengeHead + `<script>window._cf_chl_opt={cType:'managed',cFPWv:'g'};/* never clears */</script></body></html>`
)

func writeChallenge(w http.ResponseWriter, body string) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=UTF-8")
	h.Set("Cf-Mitigated", "challenge")
	h.Set("Server", "cloudflare")
	h.Set("Cf-Ray", "8f0000000000abcd-AMS")
	h.Set("Cache-Control", "private, max-age=0, no-store, no-cache, must-revalidate")
	w.WriteHeader(http.StatusForbidden)
	_, _ = w.Write([]byte(body))
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func writeHTML(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

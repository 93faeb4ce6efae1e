package faults

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"mangabookmark/backend/sitesim"
)

// fuzzer builds random and mutated requests for the API from a seeded
// source, so a failing run can be replayed with MB_FUZZ_SEED.
type fuzzer struct {
	r      *rand.Rand
	d      *deployment
	tokens []string
	paths  []string
	bodies [][]byte
}

func newFuzzer(d *deployment, seed uint64) *fuzzer {
	f := &fuzzer{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), d: d}
	site := sitesim.MangaPill
	id := d.sim.SeriesID(site, 3)
	f.tokens = []string{"", d.owner, d.reader, d.owner, d.reader, "mbt_", "mbt_" + strings.Repeat("A", 43),
		strings.Repeat("x", 9000), "\x00\x01", d.owner + "x", d.reader[:len(d.reader)-1], "null", "' OR 1=1 --"}
	f.paths = []string{"/healthz", "/metrics", "/api/me", "/api/bookmarks", "/api/bookmarks/" + site + "/" + id,
		"/api/progress", "/covers/" + site + "/" + id, "/userscript/mangabookmark.user.js",
		"/api/admin/lanes", "/api/admin/lanes/" + site + "/passes", "/api/admin/lanes/" + site + "/passes?limit=-1",
		"/api/admin/lanes/" + site + "/passes?limit=99999999999999999999", "/api/admin/lanes/" + site + "/pause",
		"/api/admin/failing", "/api/admin/failing?site=" + site + "&outcome=errors", "/api/admin/failing?outcome=%00",
		"/api/admin/series/" + site + "/" + id + "/force", "/api/admin/notices", "/auth/discord/login",
		"/auth/discord/callback?code=x&state=y", "/api/admin/lanes/nosuchsite/passes", "/api/admin/series/" + site + "/..%2f..%2fetc/force"}
	now := time.Now().UTC()
	seeds := []any{
		map[string]any{"reads": []map[string]any{{"site": site, "series_id": id, "number": "12.5", "url": d.sim.SeriesURL(site, id), "read_at": now.Format(time.RFC3339)}}},
		map[string]any{"reads": []map[string]any{{"site": sitesim.MangaDex, "series_id": d.sim.SeriesID(sitesim.MangaDex, 2), "number": "3", "read_at": now.Format(time.RFC3339Nano)}}},
		map[string]any{"url": d.sim.SeriesURL(site, id)},
		map[string]any{"url": d.sim.SeriesURL(sitesim.Kagane, d.sim.SeriesID(sitesim.Kagane, 1))},
		map[string]any{"for_s": 60, "reason": "fuzz"},
		map[string]any{"until": now.Add(time.Hour).Format(time.RFC3339), "reason": "fuzz"},
	}
	for _, s := range seeds {
		b, _ := json.Marshal(s)
		f.bodies = append(f.bodies, b)
	}
	return f
}

var fuzzValues = []string{`null`, `true`, `0`, `-1`, `1e309`, `12345678901234567890123456789`, `"12.5"`, `""`, `"NaN"`, `"-0"`,
	`"1e999"`, `"0x10"`, `[]`, `{}`, `[[[[[[[[[[]]]]]]]]]]`, `"\u0000"`, `"\ud800"`, `"𝔘𝔫𝔦"`, `"../../../etc/passwd"`,
	`"http://127.0.0.1:1/x"`, `"javascript:alert(1)"`, `"9999-12-31T23:59:59Z"`, `"0001-01-01T00:00:00Z"`, `"2026-13-45T99:99:99Z"`,
	`{"__proto__":{}}`, `"` + strings.Repeat("a", 70000) + `"`}

var fuzzKeys = []string{"reads", "site", "series_id", "number", "url", "read_at", "for_s", "until", "reason", "x"}

// body returns a request body: empty, random bytes, huge, a seed, or a
// mutated seed.
func (f *fuzzer) body() []byte {
	switch f.r.IntN(12) {
	case 0:
		return nil
	case 1:
		b := make([]byte, f.r.IntN(512))
		for i := range b {
			b[i] = byte(f.r.UintN(256))
		}
		return b
	case 2:
		return bytes.Repeat([]byte(`{"reads":[`), 1<<17) // 1.25 MiB, past the 1 MiB limit
	case 3:
		return []byte(strings.Repeat("[", 100000))
	case 4:
		return f.bodies[f.r.IntN(len(f.bodies))]
	}
	return f.mutate(f.bodies[f.r.IntN(len(f.bodies))])
}

// mutate applies one to four edits to a JSON body: byte flips, cuts,
// splices of seeds, or a field's value swapped for a hostile one.
func (f *fuzzer) mutate(in []byte) []byte {
	b := append([]byte(nil), in...)
	for n := 1 + f.r.IntN(4); n > 0 && len(b) > 0; n-- {
		switch f.r.IntN(5) {
		case 0:
			b[f.r.IntN(len(b))] = byte(f.r.UintN(256))
		case 1:
			b = b[:f.r.IntN(len(b))]
		case 2:
			o := f.bodies[f.r.IntN(len(f.bodies))]
			i := f.r.IntN(len(b))
			b = append(b[:i:i], o[f.r.IntN(len(o)):]...)
		default:
			var v any
			if json.Unmarshal(b, &v) != nil {
				continue
			}
			v = f.swap(v)
			b, _ = json.Marshal(v)
		}
	}
	return b
}

// swap replaces one value somewhere in a decoded JSON document.
func (f *fuzzer) swap(v any) any {
	raw := json.RawMessage(fuzzValues[f.r.IntN(len(fuzzValues))])
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if len(keys) == 0 || f.r.IntN(4) == 0 {
			x[fuzzKeys[f.r.IntN(len(fuzzKeys))]] = raw
			return x
		}
		k := keys[f.r.IntN(len(keys))]
		if f.r.IntN(2) == 0 {
			x[k] = f.swap(x[k])
		} else {
			x[k] = raw
		}
		return x
	case []any:
		if len(x) == 0 || f.r.IntN(3) == 0 {
			return append(x, raw)
		}
		i := f.r.IntN(len(x))
		x[i] = f.swap(x[i])
		return x
	}
	return raw
}

func (f *fuzzer) path() string {
	p := f.paths[f.r.IntN(len(f.paths))]
	switch f.r.IntN(16) {
	case 0:
		p += "/" + strconv.Itoa(f.r.IntN(1000))
	case 1:
		p = strings.Replace(p, "/", "//", 1+f.r.IntN(3))
	case 2:
		p += "/%2e%2e/%00/%ff"
	case 3:
		p = "/api/" + strings.Repeat("a/", 1+f.r.IntN(2000))
	case 4:
		p += "?" + strings.Repeat("x=1&", f.r.IntN(500))
	}
	return p
}

// methodFor is the method a route expects, so most requests get past the
// router to the handler.
func methodFor(p string, r *rand.Rand) string {
	switch {
	case strings.HasPrefix(p, "/api/progress"), strings.HasSuffix(p, "/force"), strings.HasSuffix(p, "/pause"):
		return "POST"
	case p == "/api/bookmarks":
		return []string{"GET", "POST"}[r.IntN(2)]
	case strings.HasPrefix(p, "/api/bookmarks/"):
		return "DELETE"
	}
	return "GET"
}

var fuzzMethods = []string{"GET", "POST", "POST", "POST", "DELETE", "PUT", "PATCH", "OPTIONS", "HEAD"}

// one sends a random request and returns its status (0: no answer).
func (f *fuzzer) one(base string, hc *http.Client) (int, string) {
	p := f.path()
	method := fuzzMethods[f.r.IntN(len(fuzzMethods))]
	if f.r.IntN(10) < 7 {
		method = methodFor(p, f.r)
	}
	body := f.body()
	req, err := http.NewRequest(method, base+p, bytes.NewReader(body))
	if err != nil {
		return -1, ""
	}
	desc := fmt.Sprintf("%s %.120s body %d bytes", method, p, len(body))
	if tok := f.tokens[f.r.IntN(len(f.tokens))]; tok != "" || f.r.IntN(2) == 0 {
		switch f.r.IntN(6) {
		case 0:
			req.Header.Set("Authorization", tok)
		case 1:
			req.Header.Set("Authorization", "Basic "+tok)
		case 2:
			req.Header.Set("Authorization", "Bearer  "+tok+" ")
		default:
			req.Header.Set("Authorization", "Bearer "+tok)
		}
	}
	cts := []string{"application/json", "", "text/plain", "application/json; charset=utf-16", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded"}
	if ct := cts[f.r.IntN(len(cts))]; ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	if f.r.IntN(5) == 0 {
		req.Header.Set("X-Forwarded-For", "127.0.0.1, ::1, garbage")
		req.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd, *")
		req.Header.Set("Origin", "https://evil.invalid")
		req.Header.Set("Cookie", strings.Repeat("a=b; ", 200))
	}
	resp, err := hc.Do(req)
	if err != nil {
		if strings.Contains(err.Error(), "invalid header field") {
			return -1, desc // refused by our own client, never sent
		}
		return 0, desc + ": " + err.Error()
	}
	resp.Body.Close()
	return resp.StatusCode, desc
}

// rawRequests are malformed HTTP/1.1 messages sent on a bare connection.
var rawRequests = []string{
	"GET / HTTP/1.1\r\n\r\n",
	"GARBAGE\r\n\r\n",
	"POST /api/progress HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
	"POST /api/progress HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n{",
	"POST /api/progress HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\nzz\r\n",
	"GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n",
	"GET /" + strings.Repeat("a", 70000) + " HTTP/1.1\r\nHost: x\r\n\r\n",
	"GET /healthz HTTP/1.1\r\nHost: x\r\n" + strings.Repeat("X-A: b\r\n", 5000) + "\r\n",
	"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",
}

// TestAPIFuzz is scenario 6 (the API half): random and mutated requests at
// every door of the running binary. The short form sends a few hundred;
// the long form several thousand (MB_FUZZ_N overrides, MB_FUZZ_SEED
// replays).
func TestAPIFuzz(t *testing.T) {
	needSuite(t)
	t.Parallel()
	d := newDeployment(t, "")
	d.seed(sitesim.MangaPill, 2)
	b := d.serve("fuzz", nil)
	n := 300
	if longForm() {
		n = 6000
	}
	if v, err := strconv.Atoi(os.Getenv("MB_FUZZ_N")); err == nil && v > 0 {
		n = v
	}
	seed := uint64(time.Now().UnixNano())
	if v, err := strconv.ParseUint(os.Getenv("MB_FUZZ_SEED"), 10, 64); err == nil {
		seed = v
	}
	f := newFuzzer(d, seed)
	hc := &http.Client{Timeout: 20 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	counts := map[int]int{}
	bad := 0
	for i := 0; i < n; i++ {
		st, desc := f.one(b.url, hc)
		counts[st]++
		if st == -1 {
			continue
		}
		if st == 0 || (st >= 500 && st != 503) || st == 503 {
			// The database is up: even 503 is a finding here.
			if bad++; bad <= 20 {
				t.Errorf("request %d: %d for %s", i, st, desc)
			}
		}
		if !b.alive() {
			t.Fatalf("the backend died after request %d (%s); seed %d", i, desc, seed)
		}
	}
	raw := 0
	for _, m := range rawRequests {
		c, err := net.DialTimeout("tcp", b.addr, 5*time.Second)
		if err != nil {
			t.Fatalf("dial: %v", err)
		}
		_ = c.SetDeadline(time.Now().Add(10 * time.Second))
		_, _ = c.Write([]byte(m))
		line, _ := bufio.NewReader(c).ReadString('\n')
		c.Close()
		raw++
		if strings.HasPrefix(line, "HTTP/1.1 5") && !strings.HasPrefix(line, "HTTP/1.1 505") {
			t.Errorf("raw request %.40q answered %q", m, line)
		}
	}
	if !b.alive() || b.status("/healthz") != 200 {
		t.Fatalf("the backend does not answer /healthz after the fuzz; seed %d", seed)
	}
	var keys []int
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	var sb strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&sb, " %d×%d", k, counts[k])
	}
	t.Logf("API fuzz: %d requests (seed %d) and %d raw messages; statuses:%s; findings %d", n, seed, raw, sb.String(), bad)
	if bad > 0 {
		t.Logf("replay with MB_FUZZ_SEED=%d MB_FUZZ_N=%d", seed, n)
	}
}

package faults

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/store/dbtest"
	"mangabookmark/internal/proctest"
)

// canary is an HTTP server that counts every request it sees.
type canary struct {
	srv  *httptest.Server
	hits atomic.Int64
	code int
}

func newCanary(t *testing.T, code int) *canary {
	c := &canary{code: code}
	c.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.hits.Add(1)
		w.WriteHeader(c.code)
	}))
	t.Cleanup(c.srv.Close)
	return c
}

// withPassword puts a password into a postgres:// URL; the test server
// trusts local connections, so it is accepted and ignored, and the
// backend must still never log it.
func withPassword(t *testing.T, dsn, pw string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword(u.User.Username(), pw)
	return u.String()
}

// do sends one request and returns its status (0 when no answer).
func do(method, u, tok string, body []byte) int {
	req, err := http.NewRequest(method, u, bytes.NewReader(body))
	if err != nil {
		return -1
	}
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := (&http.Client{Timeout: 15 * time.Second}).Do(req)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestSecurity is scenario 7: who may call the admin API, no fetch of a
// URL outside the registry, no secret in any log.
func TestSecurity(t *testing.T) {
	needSuite(t)
	t.Parallel()
	const (
		dbPassword   = "db-pw-canary-7f3a91"
		clientSecret = "discord-client-secret-canary-55e2"
		hookSecret   = "webhook-token-canary-c0ffee"
	)
	hook := newCanary(t, 500)
	ssrf := newCanary(t, 200)
	d := newDeployment(t, withPassword(t, dbtest.NewURL(t), dbPassword))
	d.secrets = append(d.secrets, dbPassword, clientSecret, hookSecret)

	// A Reader token revoked before the server ever sees it, and a token
	// minted under another deployment's TOKEN_KEY (on this very database).
	revoked, revokedID := d.mintWith(nil, "--reader", "300000000000000003", "--reader-name", "Bob", "--name", "to-revoke")
	d.run(nil, "token", "revoke", fmt.Sprint(revokedID))
	foreign, _ := d.mintWith(map[string]string{"TOKEN_KEY": "another-deployment-key-0123456789abcdef"}, "--owner", "--name", "foreign")
	forged := "mbt_forged-token-canary-0123456789"
	d.secrets = append(d.secrets, forged)

	b := d.serve("sec", map[string]string{
		"LATEST_CHAPTER_POLL_ENABLED": "false", // every simulator hit now comes from the API
		"DISCORD_WEBHOOK_URL":         hook.srv.URL + "/api/webhooks/123456/" + hookSecret,
		"DISCORD_CLIENT_ID":           "123456789012345678",
		"DISCORD_CLIENT_SECRET":       clientSecret,
		"DISCORD_GUILD_ID":            "876543210987654321",
	})
	site := sitesim.MangaPill
	id := d.sim.SeriesID(site, 1)

	t.Run("admin routes", func(t *testing.T) {
		routes := []struct{ method, path, body string }{
			{"GET", "/api/admin/lanes", ""},
			{"GET", "/api/admin/lanes/" + site + "/passes", ""},
			{"POST", "/api/admin/lanes/" + site + "/pause", `{"for_s":60,"reason":"x"}`},
			{"DELETE", "/api/admin/lanes/" + site + "/pause", ""},
			{"GET", "/api/admin/failing", ""},
			{"POST", "/api/admin/series/" + site + "/" + id + "/force", ""},
			{"GET", "/api/admin/notices", ""},
		}
		cases := []struct {
			who, tok string
			want     int
		}{
			{"no token", "", 401}, {"reader", d.reader, 403}, {"revoked", revoked, 401},
			{"foreign key", foreign, 401}, {"forged", forged, 401},
		}
		for _, r := range routes {
			var body []byte
			if r.body != "" {
				body = []byte(r.body)
			}
			for _, c := range cases {
				if got := do(r.method, b.url+r.path, c.tok, body); got != c.want {
					t.Errorf("%s %s with %s: %d, want %d", r.method, r.path, c.who, got, c.want)
				}
			}
			// The Owner passes the door (the answer itself may be 404 for
			// the unknown Series, never 401/403).
			if got := do(r.method, b.url+r.path, d.owner, body); got == 401 || got == 403 || got >= 500 {
				t.Errorf("%s %s with the Owner token: %d", r.method, r.path, got)
			}
		}
		for _, c := range cases[2:] {
			if got := do("GET", b.url+"/api/me", c.tok, nil); got != 401 {
				t.Errorf("GET /api/me with %s: %d, want 401", c.who, got)
			}
		}
	})

	t.Run("revoked while in use", func(t *testing.T) {
		// Revoked by another process (the CLI) while the server has the
		// token in its 10 s authentication cache: it must stop working once
		// the cache entry ages out.
		tok, tid := d.mintWith(nil, "--reader", "400000000000000004", "--reader-name", "Cy", "--name", "in-use")
		if got := do("GET", b.url+"/api/me", tok, nil); got != 200 {
			t.Fatalf("fresh token: %d", got)
		}
		d.run(nil, "token", "revoke", fmt.Sprint(tid))
		revokedAt := time.Now()
		if !eventually(15*time.Second, 250*time.Millisecond, func() bool { return do("GET", b.url+"/api/me", tok, nil) == 401 }) {
			t.Errorf("a token revoked by the CLI still authenticates 15 s later")
		} else {
			t.Logf("revoked token refused %v after the revoke", time.Since(revokedAt).Round(250*time.Millisecond))
		}
	})

	t.Run("no fetch outside the registry", func(t *testing.T) {
		simHost := strings.TrimPrefix(d.sim.Origin(site), "http://")
		canHost := strings.TrimPrefix(ssrf.srv.URL, "http://")
		_, port, _ := strings.Cut(canHost, ":")
		path := "/manga/" + id + "/x"
		bad := []string{
			ssrf.srv.URL + path,                                        // another host, the Site's path shape
			"http://" + simHost + "@" + canHost + path,                 // userinfo naming the Site, host the canary
			"http://user:pw@" + canHost + path,                         // userinfo
			"http://2130706433:" + port + path,                         // 127.0.0.1 as a decimal
			"http://0x7f.0.0.1:" + port + path,                         // hex octet
			"http://[::1]:" + port + path,                              // IPv6 loopback
			"http://[::ffff:127.0.0.1]:" + port + path,                 // mapped IPv4
			"http://169.254.169.254/latest/meta-data/",                 // cloud metadata
			"http://" + canHost + "#@" + simHost + path,                // fragment trick
			"http://" + canHost + "\\@" + simHost + path,               // backslash trick
			"file:///etc/passwd",                                       // other scheme
			"gopher://" + canHost + "/_x",                              // other scheme
			"//" + canHost + path,                                      // scheme-relative
			"http://" + canHost + "%2f@" + simHost + path,              // encoded slash
			"http://mangapill.com.attacker.invalid" + path,             // look-alike
			"https://mangapill.com@" + canHost + path,                  // real Site name as userinfo
			"http://" + canHost + path + "?next=" + d.sim.Origin(site), // Site as a query value
		}
		for _, u := range bad {
			body, _ := json.Marshal(map[string]string{"url": u})
			if got := do("POST", b.url+"/api/bookmarks", d.reader, body); got != 422 && got != 400 {
				t.Errorf("POST /api/bookmarks %q: %d, want 422 or 400", u, got)
			}
			read := map[string]any{"reads": []map[string]any{{"site": site, "series_id": id, "number": "3",
				"url": u, "read_at": time.Now().UTC().Format(time.RFC3339)}}}
			body, _ = json.Marshal(read)
			if got, applied := progressApplied(b.url, d.reader, body); got != 400 && got != 422 && (got != 200 || applied != 0) {
				t.Errorf("POST /api/progress with url %q: %d applied %d, want 400/422 or nothing applied", u, got, applied)
			}
		}
		// Series ids that would steer the Lane's own URL elsewhere.
		for _, sid := range []string{"../../etc", "x@" + canHost, canHost, "a/../../b", "%2e%2e", "1?x=http://" + canHost} {
			body, _ := json.Marshal(map[string]any{"reads": []map[string]any{{"site": site, "series_id": sid, "number": "1",
				"read_at": time.Now().UTC().Format(time.RFC3339)}}})
			if got, applied := progressApplied(b.url, d.reader, body); got != 400 && got != 422 && (got != 200 || applied != 0) {
				t.Errorf("POST /api/progress with series_id %q: %d applied %d", sid, got, applied)
			}
		}
		time.Sleep(time.Second)
		if n := ssrf.hits.Load(); n != 0 {
			t.Errorf("the canary server saw %d requests", n)
		}
		var simHits int64
		for _, s := range sitesim.SiteNames {
			simHits += d.sim.Hits(s)
		}
		if simHits != 0 {
			t.Errorf("the simulator saw %d requests from bookmark and progress calls", simHits)
		}
	})

	if !b.alive() || b.status("/healthz") != 200 {
		t.Fatal("the backend no longer answers /healthz")
	}
	// The grep (d's cleanup) needs the real log: JSON lines.
	if logs := b.logs.String(); !strings.Contains(logs, `"msg":"serving"`) {
		t.Errorf("the backend log is not the log the secret check needs:\n%s", tail(logs, 2000))
	}

	t.Run("startup errors", func(t *testing.T) {
		// Configuration and connection errors are where a secret is most
		// likely echoed back: each must exit non-zero and name the variable
		// without its value.
		cases := []struct {
			name string
			env  map[string]string
			want string
		}{
			{"unreachable database", map[string]string{"DATABASE_URL": "postgres://postgres:" + dbPassword + "@127.0.0.1:1/x?connect_timeout=2"}, "PostgreSQL"},
			{"malformed database url", map[string]string{"DATABASE_URL": "postgres://postgres:" + dbPassword + "@h:port/db"}, "DATABASE_URL"},
			{"short token key", map[string]string{"TOKEN_KEY": "short-" + hookSecret[:8]}, "TOKEN_KEY"},
			{"bad webhook url", map[string]string{"DISCORD_WEBHOOK_URL": "ftp://discord.invalid/api/webhooks/1/" + hookSecret}, "DISCORD_WEBHOOK_URL"},
			{"partial oauth", map[string]string{"DISCORD_CLIENT_ID": "1", "DISCORD_CLIENT_SECRET": clientSecret}, "DISCORD_CLIENT_ID"},
		}
		for _, c := range cases {
			c.env["LISTEN_ADDR"] = proctest.FreeAddr(t)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			cmd := exec.CommandContext(ctx, proctest.Binary(t), "serve")
			cmd.Env = proctest.CleanEnv(d.envList(c.env)...)
			out, err := cmd.CombinedOutput()
			cancel()
			if ee := (*exec.ExitError)(nil); !errors.As(err, &ee) {
				t.Errorf("%s: want a non-zero exit, got %v\n%s", c.name, err, out)
				continue
			}
			if !strings.Contains(string(out), c.want) {
				t.Errorf("%s: the error does not name %s:\n%s", c.name, c.want, out)
			}
			for _, sec := range append(d.secrets, "short-"+hookSecret[:8]) {
				if strings.Contains(string(out), sec) {
					t.Errorf("%s: the error output holds a secret (%.6s…):\n%s", c.name, sec, out)
				}
			}
		}
	})
}

// progressApplied posts a progress body and returns the status and, on
// 200, how many reads were applied.
func progressApplied(base, tok string, body []byte) (int, int) {
	req, _ := http.NewRequest("POST", base+"/api/progress", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	resp, err := (&http.Client{Timeout: 15 * time.Second}).Do(req)
	if err != nil {
		return 0, 0
	}
	defer resp.Body.Close()
	var res struct {
		Applied int `json:"applied"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&res)
	return resp.StatusCode, res.Applied
}

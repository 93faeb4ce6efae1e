package web_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

var itemTag = regexp.MustCompile(`<li class="item" data-site="([^"]+)" data-series-id="([^"]+)" data-new="(true|false)"`)

func items(body string) []string {
	var out []string
	for _, m := range itemTag.FindAllStringSubmatch(body, -1) {
		out = append(out, m[1]+"/"+m[2]+":"+m[3])
	}
	return out
}

func TestLibraryListsNewChaptersFirst(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	c := f.login(t, f.readerToken)
	a := f.get(t, c, "/")
	if a.code != http.StatusOK {
		t.Fatalf("library: %d", a.code)
	}
	got := strings.Join(items(a.body), " ")
	// New first; then by Latest Chapter date (3's is newer than weebcentral 1's); never-read last.
	if want := "mangapill/2:true mangapill/3:false weebcentral/1:false mangapill/40:false"; got != want {
		t.Fatalf("items %q, want %q", got, want)
	}
	for _, want := range []string{
		`src="/covers/mangapill/2"`, `alt="Cover of mangapill title 2"`, "New Chapter",
		`href="https://mangapill.test/chapter/2-9"`, "Ch. 9: The Ninth", "Continue: ch. 9", `<span class="badge new">1<span class="vh"> new chapter</span></span>`, "3 hours ago",
		"checking…", "unreadable since", "Nothing read yet", `href="/series/mangapill/2"`,
		`aria-label="Mark read: mangapill title 2, up to chapter 9"`, `aria-label="Remove: Never Read Yet"`, `<label for="q">`, `<label for="site">`,
	} {
		if !strings.Contains(a.body, want) {
			t.Errorf("library lacks %q", want)
		}
	}
	// Filters: by Site, and by text.
	if got := items(f.get(t, c, "/?site=weebcentral").body); len(got) != 1 || got[0] != "weebcentral/1:false" {
		t.Fatalf("site filter: %v", got)
	}
	if got := items(f.get(t, c, "/?q=NEVER+read").body); len(got) != 1 || got[0] != "mangapill/40:false" {
		t.Fatalf("text filter: %v", got)
	}
	// The Owner's library is their own (empty here): no Reader 2 rows.
	if got := items(f.get(t, f.login(t, f.ownerToken), "/").body); len(got) != 0 {
		t.Fatalf("the Owner sees another Reader's bookmarks: %v", got)
	}
}

func TestMarkReadAndRemove(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	c := f.login(t, f.readerToken)
	tok := f.csrf(t, c, "/")
	a := f.postForm(t, c, "/library/mangapill/2/read", url.Values{"csrf": {tok}})
	if a.code != http.StatusSeeOther || a.header.Get("Location") != "/" {
		t.Fatalf("mark read: %d %s", a.code, a.body)
	}
	p, err := f.st.GetProgress(context.Background(), 2, "mangapill", "2")
	if err != nil || p.Number != "9" {
		t.Fatalf("progress after mark read: %+v %v", p, err)
	}
	if got := items(f.get(t, c, "/").body); got[0] == "mangapill/2:true" || strings.Contains(strings.Join(got, " "), ":true") {
		t.Fatalf("the New Chapter marker stayed: %v", got)
	}
	a = f.postForm(t, c, "/library/mangapill/3/remove", url.Values{"csrf": {tok}})
	if a.code != http.StatusSeeOther || a.header.Get("Location") != "/" {
		t.Fatalf("remove: %d %s", a.code, a.body)
	}
	if _, err := f.st.GetBookmark(context.Background(), 2, "mangapill", "3"); err == nil {
		t.Fatal("bookmark still there after remove")
	}
	if a := f.postForm(t, c, "/library/mangapill/3/remove", url.Values{"csrf": {tok}}); a.code != http.StatusNotFound {
		t.Fatalf("removing it again: %d", a.code)
	}
	if a := f.postForm(t, c, "/library/mangapill/3/read", url.Values{"csrf": {tok}}); a.code != http.StatusNotFound {
		t.Fatalf("marking a removed bookmark read: %d", a.code)
	}
	if _, err := f.st.GetBookmark(context.Background(), 2, "mangapill", "3"); err == nil {
		t.Fatal("mark read re-created a removed bookmark")
	}
}

func TestFormsWithoutTheCSRFFieldChangeNothing(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	ctx := context.Background()
	reader := f.login(t, f.readerToken)
	owner := f.login(t, f.ownerToken)
	ownerCSRF := f.csrf(t, owner, "/admin")
	for _, bad := range []url.Values{{}, {"csrf": {""}}, {"csrf": {"forged"}}, {"csrf": {ownerCSRF}}} {
		if a := f.postForm(t, reader, "/library/mangapill/2/read", bad); a.code != http.StatusForbidden {
			t.Fatalf("read with csrf %v: %d", bad, a.code)
		}
		if a := f.postForm(t, reader, "/library/mangapill/2/remove", bad); a.code != http.StatusForbidden {
			t.Fatalf("remove with csrf %v: %d", bad, a.code)
		}
	}
	if p, _ := f.st.GetProgress(ctx, 2, "mangapill", "2"); p.Number != "8" {
		t.Fatalf("progress moved by a refused form: %+v", p)
	}
	if _, err := f.st.GetBookmark(ctx, 2, "mangapill", "2"); err != nil {
		t.Fatalf("bookmark removed by a refused form: %v", err)
	}
	for _, path := range []string{"/admin/series/comix/1/force", "/admin/lanes/comix/pause", "/admin/lanes/mangadex/resume"} {
		if a := f.postForm(t, owner, path, url.Values{"csrf": {"forged"}, "for": {"3600"}}); a.code != http.StatusForbidden {
			t.Fatalf("%s with a forged csrf: %d", path, a.code)
		}
	}
	var forced, paused int
	_ = f.st.Pool().QueryRow(ctx, `SELECT count(*) FROM series WHERE force_poll_at IS NOT NULL`).Scan(&forced)
	_ = f.st.Pool().QueryRow(ctx, `SELECT count(*) FROM poll_lanes WHERE paused_until IS NOT NULL`).Scan(&paused)
	if forced != 0 || paused != 1 || len(f.lanes.woken()) != 0 {
		t.Fatalf("refused acts changed state: forced %d, paused %d, wakes %v", forced, paused, f.lanes.woken())
	}
}

func TestPagesWithoutSessionRedirect(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	c := f.client(t)
	for _, path := range []string{"/admin", "/admin/lanes/comix", "/admin/failing"} {
		if a := f.get(t, c, path); a.code != http.StatusSeeOther || a.header.Get("Location") != "/" {
			t.Errorf("GET %s: %d %q", path, a.code, a.header.Get("Location"))
		}
	}
	for _, path := range []string{"/logout", "/library/mangapill/2/read", "/library/mangapill/2/remove",
		"/admin/series/comix/1/force", "/admin/lanes/comix/pause", "/admin/lanes/comix/resume"} {
		if a := f.postForm(t, c, path, url.Values{"csrf": {"x"}}); a.code != http.StatusSeeOther || a.header.Get("Location") != "/" {
			t.Errorf("POST %s: %d %q", path, a.code, a.header.Get("Location"))
		}
	}
	if p, _ := f.st.GetProgress(context.Background(), 2, "mangapill", "2"); p.Number != "8" {
		t.Fatal("a POST without a session changed Progress")
	}
}

func TestAPIIgnoresTheCookie(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	owner := f.login(t, f.ownerToken)
	for _, r := range []struct{ method, path, body string }{
		{"GET", "/api/me", ""}, {"GET", "/api/bookmarks", ""},
		{"POST", "/api/bookmarks", `{"url":"https://mangapill.test/series/9"}`},
		{"DELETE", "/api/bookmarks/mangapill/2", ""},
		{"POST", "/api/progress", `{"reads":[{"site":"mangapill","series_id":"2","number":"99","url":"https://mangapill.test/chapter/2-99","read_at":"2026-11-30T11:00:00Z"}]}`},
		{"GET", "/api/admin/lanes", ""}, {"POST", "/api/admin/series/comix/1/force", ""},
		{"POST", "/api/admin/lanes/comix/pause", `{"for_s":60,"reason":"x"}`},
	} {
		req, _ := http.NewRequest(r.method, f.srv.URL+r.path, strings.NewReader(r.body))
		req.Header.Set("Content-Type", "application/json")
		if a := f.do(t, owner, req); a.code != http.StatusUnauthorized {
			t.Errorf("%s %s with only the session cookie: %d", r.method, r.path, a.code)
		}
	}
	var forced int
	_ = f.st.Pool().QueryRow(context.Background(), `SELECT count(*) FROM series WHERE force_poll_at IS NOT NULL`).Scan(&forced)
	if forced != 0 {
		t.Fatal("a cookie-only JSON request forced a Series")
	}
}

func TestCoversAcceptTheSession(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	c := f.login(t, f.readerToken)
	a := f.get(t, c, "/covers/mangapill/2")
	if a.code != http.StatusOK || a.header.Get("Content-Type") != "image/png" || a.header.Get("ETag") == "" ||
		a.header.Get("Cache-Control") != "private, max-age=86400" {
		t.Fatalf("cover with the session: %d %v", a.code, a.header)
	}
	req, _ := http.NewRequest("GET", f.srv.URL+"/covers/mangapill/2", nil)
	req.Header.Set("If-None-Match", a.header.Get("ETag"))
	if a := f.do(t, c, req); a.code != http.StatusNotModified {
		t.Fatalf("revalidation with the session: %d", a.code)
	}
	if a := f.get(t, f.client(t), "/covers/mangapill/2"); a.code != http.StatusUnauthorized {
		t.Fatalf("cover without a session: %d", a.code)
	}
	if err := f.svc.RevokeToken(context.Background(), f.readerTokID); err != nil {
		t.Fatal(err)
	}
	if a := f.get(t, c, "/covers/mangapill/2"); a.code != http.StatusUnauthorized {
		t.Fatalf("cover after the token was revoked: %d", a.code)
	}
}

// TestLibraryEscapesHostileText: titles and links come from Sites; none of
// them may become markup or a script URL on the library or the Owner's pages.
func TestLibraryEscapesHostileText(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	hostile := []struct{ title, url, latestTitle, latestURL string }{
		{`"><script>alert(1)</script>`, "javascript:alert(1)", `<img src=x onerror=alert(2)>`, "JaVaScRiPt:alert(3)"},
		{`' onmouseover='alert(4)`, "data:text/html,<script>alert(5)</script>", `</a><a href="javascript:alert(6)">`, "//evil.example/x"},
		{"&lt;b&gt; already escaped", `https://mangapill.test/series/2"><svg onload=alert(7)>`, "ok", "https://mangapill.test/c/1?a=1&b=<2>"},
	}
	// Raw SQL on purpose: the rows are the attack. Their javascript: and
	// data: links are ones the Site adapters drop (sites.Resolve keeps
	// http(s) links only), so only forged rows hold them; the pages must
	// not link them all the same.
	for i, h := range hostile {
		if _, err := f.st.Pool().Exec(context.Background(), `UPDATE series SET title = $3, url = $4, latest_title = $5, latest_url = $6
			WHERE site = 'mangapill' AND series_id = $1 OR (site = 'weebcentral' AND series_id = $2)`,
			[]string{"2", "40", "3"}[i], []string{"1", "-", "-"}[i], h.title, h.url, h.latestTitle, h.latestURL); err != nil {
			t.Fatal(err)
		}
	}
	bodies := []string{f.get(t, f.login(t, f.readerToken), "/").body}
	owner := f.login(t, f.ownerToken)
	bodies = append(bodies, f.get(t, owner, "/admin/failing").body, f.get(t, owner, "/admin/lanes/weebcentral").body)
	for i, body := range bodies {
		low := strings.ToLower(body)
		for _, bad := range []string{"<script>alert", "<img src=x", "<svg onload", `="javascript:`, `href="data:`, "<a href=\"javascript", `' onmouseover='`, `href="//evil`} {
			if strings.Contains(low, bad) {
				t.Errorf("page %d carries %q", i, bad)
			}
		}
	}
	if !strings.Contains(bodies[0], "&#34;&gt;&lt;script&gt;alert(1)&lt;/script&gt;") || !strings.Contains(bodies[0], "&amp;lt;b&amp;gt; already escaped") {
		t.Error("the hostile titles are not shown as text")
	}
	if !strings.Contains(bodies[0], `href="https://mangapill.test/c/1?a=1&amp;b=%3c2%3e"`) {
		t.Error("a good chapter URL with a query lost its link")
	}
}

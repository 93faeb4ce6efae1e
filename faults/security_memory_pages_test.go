package faults

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/store/storetest"
)

// TestSecurityMemoryListingAndForms is issue 33's I3 and W1 end to end,
// on the real binary. I3: a Reader with 100 imports that could not bring
// in 10000 lines each listed them (GET /api/imports, the /import page):
// 26 → 855 MiB for one request. W1: 60 concurrent "Add a Series" posts of
// 1 MiB from one session reached 1164 MiB. Here the listing answers
// counts only, the form's body is capped and the session's requests take
// the token's in-flight slots, and the peak RSS, logged as a figure, stays
// under memoryBoundMiB.
func TestSecurityMemoryListingAndForms(t *testing.T) {
	needSuite(t)
	t.Parallel()
	d := newDeployment(t, "")
	api := d.serve("api", map[string]string{"LATEST_CHAPTER_POLL_ENABLED": "false"})
	base := peakRSSMiB(t, api.cmd.Process.Pid)

	// I3: one import of 10000 lines of three-byte characters, through the
	// API as the review made them; then 99 more rows of the same shape,
	// written directly (the store keeps what it keeps of each).
	lines := make([]string, 10000)
	for i := range lines {
		lines[i] = fmt.Sprintf("%d %s", i, strings.Repeat("漫", 290))
	}
	body, _ := json.Marshal(map[string][]string{"urls": lines})
	req, _ := http.NewRequest("POST", api.url+"/api/imports", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+d.reader)
	req.Header.Set("Content-Type", "application/json")
	resp, err := (&http.Client{Timeout: 2 * time.Minute}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("the import: %d", resp.StatusCode)
	}
	// The real import's job copied 99 times is the volume under test.
	storetest.CopyImport(context.Background(), t, d.store(), storetest.ImportCopy{Times: 99})
	afterImport := peakRSSMiB(t, api.cmd.Process.Pid)

	jar, _ := cookiejar.New(nil)
	web := &http.Client{Jar: jar, Timeout: 2 * time.Minute, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	login, _ := http.NewRequest("POST", api.url+"/login", strings.NewReader(url.Values{"token": {d.reader}}.Encode()))
	login.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	login.Header.Set("Origin", api.url)
	if resp, err := web.Do(login); err != nil || resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("login: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}

	// Eight listings through each face at once.
	var mu sync.Mutex
	listed := map[string]int{}
	largest := 0
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var r *http.Request
			var c *http.Client
			if i%2 == 0 {
				r, _ = http.NewRequest("GET", api.url+"/api/imports", nil)
				r.Header.Set("Authorization", "Bearer "+d.reader)
				c = &http.Client{Timeout: 2 * time.Minute}
			} else {
				r, _ = http.NewRequest("GET", api.url+"/import", nil)
				c = web
			}
			code, n := 0, 0
			if resp, err := c.Do(r); err == nil {
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				code, n = resp.StatusCode, len(b)
			}
			mu.Lock()
			listed[fmt.Sprintf("%s %d", r.URL.Path, code)]++
			largest = max(largest, n)
			mu.Unlock()
		}()
	}
	wg.Wait()
	if listed["/api/imports 200"] == 0 || listed["/import 200"] == 0 {
		t.Fatalf("listings: %v, want answers of both faces", listed)
	}
	afterListing := peakRSSMiB(t, api.cmd.Process.Pid)

	// W1: 60 "Add a Series" posts of 1 MiB at once from the session.
	page, err := web.Get(api.url + "/")
	if err != nil {
		t.Fatal(err)
	}
	html, _ := io.ReadAll(page.Body)
	page.Body.Close()
	m := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindSubmatch(html)
	if m == nil {
		t.Fatal("no csrf field on the library")
	}
	// Just under the server-wide 1 MiB and 10000 lines, as the review's
	// posts (which the pages took whole and ran, 303 each).
	var urls strings.Builder
	for i := 0; i < 9900; i++ {
		fmt.Fprintf(&urls, "https://mangapill.com/manga/%d/%s\n", 100000+i, strings.Repeat("a", 30))
	}
	form := []byte(url.Values{"csrf": {string(m[1])}, "urls": {urls.String()}}.Encode())
	if len(form) >= 1<<20 {
		t.Fatalf("the form is %d bytes, want under 1 MiB", len(form))
	}
	posted := map[int]int{}
	start := make(chan struct{})
	for i := 0; i < 60; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			r, _ := http.NewRequest("POST", api.url+"/library/add", bytes.NewReader(form))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			r.Header.Set("Origin", api.url)
			code := 0
			if resp, err := web.Do(r); err == nil {
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				code = resp.StatusCode
			}
			mu.Lock()
			posted[code]++
			mu.Unlock()
		}()
	}
	close(start)
	wg.Wait()
	if posted[http.StatusRequestEntityTooLarge]+posted[http.StatusTooManyRequests]+posted[0] != 60 || posted[http.StatusRequestEntityTooLarge] == 0 {
		t.Fatalf("60 posts of 1 MiB: answers %v, want 413 (over the form's cap) or 429 (past the in-flight bound or the upload slot)", posted)
	}
	peak := peakRSSMiB(t, api.cmd.Process.Pid)
	t.Logf("listings %v, largest answer %d bytes; Add a Series posts %v", listed, largest, posted)
	t.Logf("peak RSS: %.0f MiB before, %.0f MiB after the 9 MiB import, %.0f MiB after 16 listings of 100 imports, %.0f MiB after 60 posts of 1 MiB; bound %d MiB",
		base, afterImport, afterListing, peak, memoryBoundMiB)
	if afterListing > memoryBoundMiB || peak > memoryBoundMiB {
		t.Fatalf("the backend's peak RSS reached %.0f MiB (%.0f after the listings), over the bound of %d MiB", peak, afterListing, memoryBoundMiB)
	}
	if n := d.count(`SELECT count(*) FROM import_jobs`); n != 100 {
		t.Fatalf("%d import rows after the refused posts, want the 100 there were", n)
	}
	if api.status("/healthz") != 200 {
		t.Fatal("the backend no longer answers /healthz")
	}
}

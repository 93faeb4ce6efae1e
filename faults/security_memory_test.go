package faults

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// memoryFloodRequests is how many maximal bodies are in flight together:
// the write budget's burst of 120 (issue 23 item 1).
const memoryFloodRequests = 120

// memoryBoundMiB is the peak resident set the backend must stay under
// while the flood is in. Before the bodies were streamed one such request
// cost about 80 MiB of heap, and 60 of them reached 5 GiB.
const memoryBoundMiB = 128

// peakRSSMiB reads the process's high-water resident set (VmHWM).
func peakRSSMiB(t *testing.T, pid int) float64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			if err != nil {
				t.Fatalf("VmHWM %q: %v", rest, err)
			}
			return float64(kb) / 1024
		}
	}
	t.Fatal("no VmHWM in /proc status")
	return 0
}

// maximalBody is the largest POST /api/progress body the server takes
// (1 MiB): about 350,000 empty reads.
func maximalBody() []byte {
	return []byte(`{"reads":[` + strings.Repeat(`{},`, (1<<20-20)/3) + `{}]}`)
}

// TestSecurityMemory is issue 23 item 1 end to end: 120 maximal progress
// bodies at once, first spread over 15 Readers' tokens (8 each, all
// admitted), then all from one token (past the per-token bound of
// requests in flight, when they overlap). Every request is answered (400
// at read 501, or 429),
// nothing is written, and the backend's peak RSS, logged as a figure, stays
// under memoryBoundMiB.
func TestSecurityMemory(t *testing.T) {
	needSuite(t)
	t.Parallel()
	d := newDeployment(t, "")
	api := d.serve("api", map[string]string{"LATEST_CHAPTER_POLL_ENABLED": "false"})
	tokens := []string{d.reader}
	for i := 1; i < memoryFloodRequests/8; i++ {
		tok, _ := d.mintWith(nil, "--reader", fmt.Sprint(300000000000000100+i), "--reader-name", fmt.Sprint("M", i), "--name", "mem")
		tokens = append(tokens, tok)
	}
	body := maximalBody()
	base := peakRSSMiB(t, api.cmd.Process.Pid)
	tried := 0
	flood := func(tokenOf func(i int) string) map[int]int {
		codes := map[int]int{}
		var mu sync.Mutex
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := 0; i < memoryFloodRequests; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				// Chunked (no Content-Length), so only the server's own
				// reading of the body can stop it.
				req, _ := http.NewRequest("POST", api.url+"/api/progress", io.MultiReader(strings.NewReader(string(body))))
				req.ContentLength = -1
				req.Header.Set("Authorization", "Bearer "+tokenOf(i))
				req.Header.Set("Content-Type", "application/json")
				c := &http.Client{Timeout: 2 * time.Minute, Transport: &http.Transport{DisableKeepAlives: true}}
				code := 0
				if resp, err := c.Do(req); err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					code = resp.StatusCode
				}
				mu.Lock()
				codes[code]++
				mu.Unlock()
			}()
		}
		close(start)
		wg.Wait()
		tried += memoryFloodRequests
		return codes
	}
	// An answer of 0 is a connection the server closed after answering,
	// while the client was still writing the rest of the body.
	spread := flood(func(i int) string { return tokens[i%len(tokens)] })
	if spread[http.StatusBadRequest]+spread[0] != memoryFloodRequests || spread[http.StatusBadRequest] == 0 {
		t.Fatalf("120 maximal bodies over %d tokens: answers %v, want 400 (stopped at read 501) or the connection closed", len(tokens), spread)
	}
	afterSpread := peakRSSMiB(t, api.cmd.Process.Pid)
	if afterSpread > memoryBoundMiB {
		t.Fatalf("the backend's peak RSS reached %.0f MiB under 120 bodies over %d tokens, over the bound of %d MiB", afterSpread, len(tokens), memoryBoundMiB)
	}
	one := flood(func(int) string { return d.reader })
	// How many are 429 depends on how fast the server stops each body (the
	// bound itself is api's TestInFlightPerToken); none may be anything else.
	if one[http.StatusBadRequest]+one[http.StatusTooManyRequests]+one[0] != memoryFloodRequests {
		t.Fatalf("120 maximal bodies of one token: answers %v, want 400s and 429s only (or closed)", one)
	}
	peak := peakRSSMiB(t, api.cmd.Process.Pid)
	t.Logf("answers: over %d tokens %v, of one token %v", len(tokens), spread, one)
	t.Logf("peak RSS: %.0f MiB before, %.0f MiB after 120 bodies over %d tokens, %.0f MiB after 120 of one token (%d of them 429); bound %d MiB",
		base, afterSpread, len(tokens), peak, one[http.StatusTooManyRequests], memoryBoundMiB)
	t.Logf("hostile inputs tried: %d", tried)
	if peak > memoryBoundMiB {
		t.Fatalf("the backend's peak RSS reached %.0f MiB under the flood, over the bound of %d MiB", peak, memoryBoundMiB)
	}
	if n := d.count(`SELECT count(*) FROM progress`) + d.count(`SELECT count(*) FROM series`); n != 0 {
		t.Fatalf("the flood wrote %d rows", n)
	}
	if api.status("/healthz") != 200 {
		t.Fatal("the backend no longer answers /healthz")
	}
}

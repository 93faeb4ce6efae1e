package main

import (
	"strings"
	"testing"
	"time"
)

func TestParseAndRatios(t *testing.T) {
	raw := `goos: linux
BenchmarkLanePoll-2         	    1000	   3000000 ns/op	   2000000 ns/poll
BenchmarkBareGetParse-2     	    3000	    900000 ns/op	   1000000 ns/poll
BenchmarkDueQuery10k-2      	      20	   1000000 ns/op
BenchmarkDueQuery1M-2       	      20	   3000000 ns/op
BenchmarkWorklistRender10k-2	     100	  12000000 ns/op
PASS
`
	res, err := parse(strings.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if got := res["BenchmarkLanePoll"]["ns/poll"]; got != 2e6 {
		t.Fatalf("LanePoll ns/poll = %v", got)
	}
	out := render(res, time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC))
	for _, want := range []string{
		"| Lane per-Poll overhead (stamp, fetch, parse, write) | 2.00 ms | 1.00 ms | 2.00 (Lane / bare GET+parse) |",
		"| Due query at 1M Series (batch) | 3.00 ms | 1.00 ms | 3.00 (1M / 10k) | ratio ≤ 2 ✗ |",
		"| Dashboard frame, 10k-row worklist | 12.0 ms |  |  | < 10 ms ✗ |",
		"| Browser reads through one tab | not measured |",
		"2026-11-30",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

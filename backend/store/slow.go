package store

import "time"

// Junk Series at scale (docs/adr/0018-forged-reads-and-junk-series.md):
// the Reader limits bound how fast Series arrive, not how many there are,
// and a Lane's gap is its Rest spread over its Series. So a Series that has
// only ever read not_found and that no Reader has opened for a week is
// slow (created over a week ago; series.slow, set by UpsertFailure with each failure recorded,
// cleared by RecordOK): it is due at most once every SlowRest, whatever its
// Site's Rest, and it does not count towards the Lane's gap. A failing
// Series that once read ok keeps its Site's pace. A Forced Poll reads a
// slow Series at once like any other.

// SlowRest is how long a slow Series rests between reads.
const SlowRest = 24 * time.Hour

// SlowUnopenedFor is how long no Reader may have bookmarked a Series or
// moved Progress on it before it can be slow.
const SlowUnopenedFor = 7 * 24 * time.Hour

// slowRest is the rest of a slow Series on a Site whose Rest is rest: the
// longer of the two.
func slowRest(rest time.Duration) time.Duration { return max(rest, SlowRest) }

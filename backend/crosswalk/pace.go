package crosswalk

import "mangabookmark/backend/trackers"

// PerMinute is the most lookups one process starts in any minute:
// MangaBaka counts 180 uncached requests a minute per address for its
// non-search routes (the figure its iOS app and a design note quote,
// docs/sources.md (ids) §2), and 150 leaves room for a second tool on one address.
const PerMinute = 150

// Clock is the Worker's time: Now and a Sleep that ends early with ctx,
// the trackers' clock (lanestest.FakeClock satisfies it).
type Clock = trackers.Clock

package lanes

// testSignals let a test wait for something to happen instead of sleeping
// for it (river's TestSignals): a test that proves a process does NOT read
// waits until that process has tried for the lock and missed, then looks.
// Outside tests the Manager has none, and a send never blocks the Lane.
type testSignals struct {
	lockMissed chan string // a try for a Site's lock found another holder
	laneEnded  chan string // a held Lane stopped (its lock lost or shutdown); no read follows
}

// missed reports a lock try that found another holder.
func (s *testSignals) missed(site string) {
	if s != nil {
		trySend(s.lockMissed, site)
	}
}

// ended reports that a held Lane stopped.
func (s *testSignals) ended(site string) {
	if s != nil {
		trySend(s.laneEnded, site)
	}
}

func trySend(ch chan string, site string) {
	select {
	case ch <- site:
	default:
	}
}

package lanes

// LockSignals makes m report, on the returned channels, each lock try that
// found another holder and each end of a held Lane, by Site. Call it
// before Start; a full channel drops the signal rather than block.
func (m *Manager) LockSignals(buffer int) (missed, ended <-chan string) {
	m.signals = &testSignals{lockMissed: make(chan string, buffer), laneEnded: make(chan string, buffer)}
	return m.signals.lockMissed, m.signals.laneEnded
}

package admin

// OnRecount sets a signal called after each background recount (tests
// wait on it instead of sleeping).
func (s *Service) OnRecount(f func()) {
	s.counts.mu.Lock()
	defer s.counts.mu.Unlock()
	s.counts.recounted = f
}

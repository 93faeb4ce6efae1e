package imports

import "sync"

// One Reader has at most one import body being read and decoded in this
// process at once, whichever face it came through (POST /api/imports or
// the import page): a body may be 32 MiB, and a token's 8 requests in
// flight would otherwise hold 256 MiB of one Reader's uploads.

// uploads holds the Readers with an upload in progress; its zero value is
// ready.
type uploads struct {
	mu  sync.Mutex
	per map[int64]struct{}
}

// BeginUpload takes the Reader's one upload slot before its body is read.
// It reports false while another upload of the Reader's holds it; when it
// reports true the caller calls release once the upload is done.
func (s *Service) BeginUpload(readerID int64) (release func(), ok bool) {
	u := &s.uploads
	u.mu.Lock()
	defer u.mu.Unlock()
	if _, busy := u.per[readerID]; busy {
		return nil, false
	}
	if u.per == nil {
		u.per = map[int64]struct{}{}
	}
	u.per[readerID] = struct{}{}
	var once sync.Once
	return func() {
		once.Do(func() {
			u.mu.Lock()
			defer u.mu.Unlock()
			delete(u.per, readerID)
		})
	}, true
}

package web

import (
	"net"
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Failed logins are throttled per client address: an address may fail
// loginBurst times at once, then once per loginEvery; past that a failed
// POST /login is 429 with Retry-After until the bucket refills, which tells
// a guessing client to slow down. Only failures count and only failures
// are refused: behind the TLS proxy every client shares one address, so a
// valid token logs in even from an address past its limit, or one
// stranger's wrong tokens would lock every Reader out. The token is checked
// first, so the throttle does not save the check's HMAC and database
// lookup; a token is 256 random bits, so guessing is hopeless either way.
const (
	loginBurst    = 10
	loginEvery    = 6 * time.Second
	loginHostsMax = 10000 // past it the map starts over
)

// loginThrottle holds a bucket of failed logins per client address.
type loginThrottle struct {
	mu    sync.Mutex
	now   func() time.Time
	hosts map[string]*rate.Limiter
}

func newLoginThrottle(now func() time.Time) *loginThrottle {
	return &loginThrottle{now: now, hosts: map[string]*rate.Limiter{}}
}

func clientHost(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

func (l *loginThrottle) limiter(host string) *rate.Limiter {
	l.mu.Lock()
	defer l.mu.Unlock()
	lim, ok := l.hosts[host]
	if !ok {
		if len(l.hosts) >= loginHostsMax {
			l.hosts = map[string]*rate.Limiter{}
		}
		lim = rate.NewLimiter(rate.Every(loginEvery), loginBurst)
		l.hosts[host] = lim
	}
	return lim
}

// fail spends one failed login of the address and reports whether it had
// one left; false means the failure is refused with 429.
func (l *loginThrottle) fail(r *http.Request) bool {
	return l.limiter(clientHost(r)).AllowN(l.now(), 1)
}

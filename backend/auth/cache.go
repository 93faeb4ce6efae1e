package auth

import (
	"sync"
	"time"
)

// authCacheTTL is how long a successful authentication is remembered, so
// a busy client costs one token lookup per TTL instead of one per request.
// A token revoked through this process is refused at once (the cache is
// dropped); one revoked by another process (the token CLI) is refused
// within the TTL.
const authCacheTTL = 10 * time.Second

// authCacheMax bounds the cache; past it the cache starts over.
const authCacheMax = 10000

type authCache struct {
	mu      sync.RWMutex
	entries map[string]cachedIdentity // keyed by the token's HMAC
}

type cachedIdentity struct {
	id    Identity
	until time.Time
}

func newAuthCache() *authCache { return &authCache{entries: map[string]cachedIdentity{}} }

func (c *authCache) get(digest []byte, now time.Time) (Identity, bool) {
	c.mu.RLock()
	e, ok := c.entries[string(digest)]
	c.mu.RUnlock()
	if !ok || !now.Before(e.until) {
		return Identity{}, false
	}
	return e.id, true
}

func (c *authCache) put(digest []byte, id Identity, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= authCacheMax {
		c.entries = map[string]cachedIdentity{}
	}
	c.entries[string(digest)] = cachedIdentity{id: id, until: now.Add(authCacheTTL)}
}

func (c *authCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries = map[string]cachedIdentity{}
}

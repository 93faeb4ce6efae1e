package admintest

import (
	"sync"
	"testing"
	"time"

	"mangabookmark/backend/lanes"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/sitestest"
)

// Now is the fixture's fixed clock.
var Now = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// SiteNames is the registry order of the fixture's Sites.
var SiteNames = []string{"kagane", "comix", "mangadex", "weebcentral", "mangapill", "natomanga"}

// Registry is the fixture's six Sites, three of them on the browser route,
// each on host {name}.test with sitestest's /series/{id} URLs.
func Registry(t testing.TB) *sites.Registry {
	t.Helper()
	var list []*sites.Site
	for _, n := range SiteNames {
		site, _ := sitestest.Site(n, n == "kagane" || n == "comix" || n == "natomanga")
		list = append(list, site)
	}
	reg, err := sites.NewRegistry(list)
	if err != nil {
		t.Fatalf("admintest: registry: %v", err)
	}
	return reg
}

// FakeLanes records wakes and answers a fixed runtime per Site.
type FakeLanes struct {
	mu      sync.Mutex
	runtime map[string]lanes.Runtime
	wakes   []string
}

// NewFakeLanes is the fixture's Lanes: every poll switch on, natomanga a
// browser Site without a sidecar.
func NewFakeLanes() *FakeLanes {
	fl := &FakeLanes{runtime: map[string]lanes.Runtime{}}
	for _, n := range SiteNames {
		fl.runtime[n] = lanes.Runtime{Enabled: true}
	}
	fl.runtime["natomanga"] = lanes.Runtime{Enabled: true, NoBrowser: true}
	return fl
}

// Wake records the Site woken.
func (l *FakeLanes) Wake(site string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.wakes = append(l.wakes, site)
}

// Runtime answers the Site's fixed runtime.
func (l *FakeLanes) Runtime(site string) lanes.Runtime {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.runtime[site]
}

// SetRuntime replaces one Site's runtime.
func (l *FakeLanes) SetRuntime(site string, rt lanes.Runtime) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.runtime[site] = rt
}

// Wakes returns the Sites woken so far, in order.
func (l *FakeLanes) Wakes() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.wakes...)
}

// DisabledRuntime is a Lane whose poll switch is off.
func DisabledRuntime() lanes.Runtime { return lanes.Runtime{} }

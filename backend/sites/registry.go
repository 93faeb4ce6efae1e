package sites

import (
	"fmt"
	"strings"
)

// Registry is the ordered list of Sites the backend knows. It is built once
// at start (backend/sites/registry builds the six real entries) and is
// read-only afterwards, so it is safe for concurrent use.
type Registry struct {
	sites  []*Site
	byName map[string]*Site
	byHost map[string]*Site
	pacers map[string]*Pacer
}

// NewRegistry indexes the given Sites in order. Names and hosts must be
// unique; hosts are matched case-insensitively and without "www.".
func NewRegistry(list []*Site) (*Registry, error) {
	r := &Registry{byName: map[string]*Site{}, byHost: map[string]*Site{}, pacers: map[string]*Pacer{}}
	for _, s := range list {
		if s.Name == "" || s.Adapter == nil {
			return nil, fmt.Errorf("sites: registry entry %q lacks a name or adapter", s.Name)
		}
		if _, dup := r.byName[s.Name]; dup {
			return nil, fmt.Errorf("sites: site %q listed twice", s.Name)
		}
		if s.Rest <= 0 {
			s.Rest = DefaultRest
		}
		if s.Gap <= 0 {
			s.Gap = DefaultGap
		}
		if s.ListingEvery == 0 && s.ListerOf() != nil {
			s.ListingEvery = DefaultListingEvery
		}
		r.byName[s.Name] = s
		r.pacers[s.Name] = &Pacer{}
		r.sites = append(r.sites, s)
		for _, h := range s.Hosts {
			h = normHost(h)
			if other, dup := r.byHost[h]; dup && other != s {
				return nil, fmt.Errorf("sites: host %q claimed by %s and %s", h, other.Name, s.Name)
			}
			r.byHost[h] = s
		}
	}
	return r, nil
}

// All returns the Sites in registry order.
func (r *Registry) All() []*Site { return r.sites }

// Pacer is the one Pacer of the named Site that every reader of it in
// this process shares (nil for an unknown name).
func (r *Registry) Pacer(name string) *Pacer { return r.pacers[name] }

// Get returns the Site of that name, or nil.
func (r *Registry) Get(name string) *Site { return r.byName[name] }

// Names returns the Site names in registry order.
func (r *Registry) Names() []string {
	out := make([]string, len(r.sites))
	for i, s := range r.sites {
		out[i] = s.Name
	}
	return out
}

// ByHost returns the Site serving that host (with or without "www."), or nil.
func (r *Registry) ByHost(host string) *Site { return r.byHost[normHost(host)] }

func normHost(h string) string {
	h = strings.ToLower(strings.TrimSuffix(h, "."))
	return strings.TrimPrefix(h, "www.")
}

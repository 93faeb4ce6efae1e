package sites

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
)

// ParseOrigins reads a SITE_ORIGINS value: comma-separated name=origin pairs
// such as "comix=http://127.0.0.1:8081,kagane=https://mirror.example". An
// origin is an http(s) scheme and host with no path, query or userinfo; the
// result maps Site name to the origin without a trailing slash. Site names
// are checked against a registry by ApplyOrigins.
func ParseOrigins(v string) (map[string]string, error) {
	out := map[string]string{}
	for _, entry := range strings.Split(v, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		name, origin, ok := strings.Cut(entry, "=")
		name, origin = strings.TrimSpace(name), strings.TrimSpace(origin)
		if !ok || name == "" || origin == "" {
			return nil, fmt.Errorf("sites: SITE_ORIGINS entry %q is not name=origin", entry)
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("sites: SITE_ORIGINS names %q twice", name)
		}
		clean, err := cleanOrigin(origin)
		if err != nil {
			return nil, fmt.Errorf("sites: SITE_ORIGINS entry %q: %w", entry, err)
		}
		out[name] = clean
	}
	return out, nil
}

func cleanOrigin(origin string) (string, error) {
	u, err := url.Parse(origin)
	if err != nil {
		return "", fmt.Errorf("origin does not parse: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("origin must start with http:// or https://")
	}
	if u.Host == "" || u.Hostname() == "" {
		return "", fmt.Errorf("origin has no host")
	}
	if u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("origin must be scheme and host only (no user, path, query or fragment)")
	}
	return u.Scheme + "://" + strings.ToLower(u.Host), nil
}

// ApplyOrigins points each named Site at its override origin: it sets
// Site.Origin and Site.Overridden and recognises the origin's host (with its
// port) as one of the Site's hosts. An unknown Site name, a malformed origin
// or a host another Site already claims is an error naming the entry.
// Call it once, before the registry is shared.
func (r *Registry) ApplyOrigins(origins map[string]string) error {
	names := make([]string, 0, len(origins))
	for n := range origins {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		s := r.byName[name]
		if s == nil {
			return fmt.Errorf("sites: SITE_ORIGINS names unknown Site %q (known: %s)", name, strings.Join(r.Names(), ", "))
		}
		origin, err := cleanOrigin(origins[name])
		if err != nil {
			return fmt.Errorf("sites: SITE_ORIGINS entry %s=%s: %w", name, origins[name], err)
		}
		host := normHost(strings.SplitN(origin, "://", 2)[1])
		if other, dup := r.byHost[host]; dup && other != s {
			return fmt.Errorf("sites: SITE_ORIGINS entry %s=%s: host already belongs to %s", name, origin, other.Name)
		}
		r.byHost[host] = s
		s.Origin = origin
		s.Overridden = true
		s.Hosts = append(s.Hosts, host)
	}
	return nil
}

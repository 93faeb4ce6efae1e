package netguard

import (
	"net/netip"
)

// blocked are the prefixes no outlet may reach unless the Owner allows a
// network that holds the address: everything that is not a public unicast
// address, and every IPv6 form that embeds an IPv4 address a gateway or
// tunnel may turn into a private one.
var blocked = mustPrefixes(
	"0.0.0.0/8",       // "this network", 0.0.0.0 included
	"10.0.0.0/8",      // private
	"100.64.0.0/10",   // carrier-grade NAT
	"127.0.0.0/8",     // loopback
	"169.254.0.0/16",  // link-local (cloud metadata lives here)
	"172.16.0.0/12",   // private
	"192.0.0.0/24",    // IETF protocol assignments
	"192.0.2.0/24",    // documentation
	"192.168.0.0/16",  // private
	"198.18.0.0/15",   // benchmarking
	"198.51.100.0/24", // documentation
	"203.0.113.0/24",  // documentation
	"224.0.0.0/4",     // multicast
	"240.0.0.0/4",     // reserved, broadcast included
	"::/96",           // IPv4-compatible (deprecated; ::127.0.0.1), unspecified and loopback included
	"::ffff:0:0:0/96", // IPv4-translated (SIIT)
	"64:ff9b::/96",    // NAT64 (embeds an IPv4 address)
	"64:ff9b:1::/48",  // local-use NAT64
	"100::/64",        // discard
	"2001::/32",       // Teredo (embeds an IPv4 server and client)
	"2001:db8::/32",   // documentation
	"2002::/16",       // 6to4 (embeds an IPv4 address)
	"fc00::/7",        // unique local
	"fe80::/10",       // link-local
	"ff00::/8",        // multicast
)

func mustPrefixes(ss ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(ss))
	for i, s := range ss {
		out[i] = netip.MustParsePrefix(s)
	}
	return out
}

// Private reports whether an outlet must not reach ip: loopback, private,
// link-local, unspecified, multicast, reserved or documentation space, or
// an IPv6 form that embeds an IPv4 address (IPv4-compatible, NAT64, 6to4,
// Teredo). An IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged as
// its IPv4 form.
func Private(ip netip.Addr) bool {
	ip = ip.Unmap().WithZone("")
	if !ip.IsValid() {
		return true
	}
	for _, p := range blocked {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

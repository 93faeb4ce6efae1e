package netguard

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
)

// mapResolver answers fixed addresses per name, as a hostile DNS zone
// would; unknown names do not resolve.
type mapResolver map[string][]string

func (m mapResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	ss, ok := m[host]
	if !ok {
		return nil, errors.New("no such host")
	}
	var out []netip.Addr
	for _, s := range ss {
		out = append(out, netip.MustParseAddr(s))
	}
	return out, nil
}

func TestCheckRefusesWhatAnAttackerWouldTry(t *testing.T) {
	t.Parallel()
	g := Guard{Resolver: mapResolver{
		"public.example":   {"93.184.215.14"},
		"rebind.example":   {"93.184.215.14", "127.0.0.1"},
		"metadata.example": {"169.254.169.254"},
		"v6loop.example":   {"::1"},
		"mapped.example":   {"::ffff:10.0.0.1"},
	}}
	refused := []string{
		"ftp://public.example/x",
		"javascript:alert(1)",
		"file:///etc/passwd",
		"//public.example/no-scheme",
		"http://",
		"http://127.0.0.1/",
		"http://127.1.2.3:8080/",
		"http://0.0.0.0:80/",
		"http://[::1]/",
		"http://[::]/",
		"http://[::ffff:127.0.0.1]/",
		"http://[::127.0.0.1]/",            // IPv4-compatible
		"http://[::7f00:1]/",               // the same, in hex
		"http://[::ffff:0:7f00:1]/",        // IPv4-translated
		"http://[2002:7f00:1::1]/",         // 6to4 of 127.0.0.1
		"http://[2002:c0a8:101::1]/",       // 6to4 of 192.168.1.1
		"http://[2001:0:4136:e378::1]/",    // Teredo
		"http://[64:ff9b::7f00:1]/",        // NAT64
		"http://[0:0:0:0:0:ffff:7f00:1]/",  // mapped, long form
		"http://[::ffff:169.254.169.254]/", // mapped metadata
		"http://[fe80::1%25eth0]/",
		"http://[fd00::1]/",
		"http://10.0.0.8/",
		"http://172.16.5.4/",
		"http://192.168.1.1/",
		"http://169.254.169.254/latest/meta-data/",
		"http://100.64.0.1/",
		"http://2130706433/",
		"http://0x7f000001/",
		"http://0x7f.0.0.1/",
		"http://0177.0.0.1/",
		"http://017700000001/",
		"http://127.1/",
		"http://rebind.example/",
		"http://metadata.example/",
		"http://v6loop.example/",
		"http://mapped.example/",
		"http://nowhere.example/",
	}
	for _, raw := range refused {
		if err := g.Check(context.Background(), raw); err == nil {
			t.Errorf("Check(%q) accepted it", raw)
		} else if strings.Contains(err.Error(), "%!") {
			t.Errorf("Check(%q): malformed message %q", raw, err)
		}
	}
	for _, raw := range []string{"https://public.example/hook", "http://93.184.215.14:8080/x", "https://[2606:4700::1111]/"} {
		if err := g.Check(context.Background(), raw); err != nil {
			t.Errorf("Check(%q) = %v, want accepted", raw, err)
		}
	}
	// The real resolver: localhost is loopback by /etc/hosts.
	if err := (Guard{}).Check(context.Background(), "http://localhost:9/"); !IsPrivate(err) {
		t.Errorf("localhost: %v, want a private-address refusal", err)
	}
	open := Guard{AllowNets: Loopback()}
	if err := open.Check(context.Background(), "http://127.0.0.1:9/"); err != nil {
		t.Errorf("AllowNets refused loopback: %v", err)
	}
	if err := open.Check(context.Background(), "gopher://127.0.0.1/"); err == nil {
		t.Error("AllowNets let a non-http scheme through")
	}
}

func TestClientRefusesPrivateAtDialTime(t *testing.T) {
	t.Parallel()
	hit := make(chan struct{}, 10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hit <- struct{}{} }))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	c := Guard{}.Client()
	for _, u := range []string{srv.URL, "http://localhost:" + port + "/"} {
		resp, err := c.Get(u)
		if err == nil {
			resp.Body.Close()
			t.Fatalf("GET %s reached the loopback server", u)
		}
		if !IsPrivate(err) {
			t.Fatalf("GET %s: %v, want a private-address refusal", u, err)
		}
	}
	if len(hit) != 0 {
		t.Fatal("the loopback server was reached")
	}
	resp, err := Guard{AllowNets: Loopback()}.Client().Get(srv.URL)
	if err != nil {
		t.Fatalf("AllowNets: %v", err)
	}
	resp.Body.Close()
}

func TestClientRefusesRedirectsToPrivate(t *testing.T) {
	t.Parallel()
	inner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the private target was reached: %s", r.URL)
	}))
	defer inner.Close()
	_, innerPort, _ := net.SplitHostPort(inner.Listener.Addr().String())
	v6, err := net.Listen("tcp", "[::1]:0")
	if err != nil {
		t.Skipf("no IPv6 loopback here: %v", err)
	}
	v6srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the IPv6 loopback target was reached")
	}))
	v6srv.Listener = v6
	v6srv.Start()
	defer v6srv.Close()

	targets := []string{
		"http://127.0.0.2:" + innerPort + "/",   // literal private
		"http://localhost:" + innerPort + "/",   // a name resolving to loopback: refused at dial
		v6srv.URL + "/",                         // IPv6 loopback
		"http://0.0.0.0:" + innerPort + "/",     // unspecified
		"http://2130706433:" + innerPort + "/",  // decimal IPv4
		"gopher://127.0.0.1:" + innerPort + "/", // not http(s)
	}
	// The outer server stands in for a public host (its address is the one
	// loopback this guard lets through) and redirects to each target.
	for _, target := range targets {
		outer := standIn(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, target, http.StatusFound)
		}))
		g := Guard{AllowNets: only(outer)}
		resp, err := g.Client().Get(outer.URL)
		if err == nil {
			resp.Body.Close()
			t.Errorf("redirect to %s was followed", target)
		}
		outer.Close()
	}
	// Too many redirects, even between allowed hosts.
	var loop *httptest.Server
	loop = standIn(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, loop.URL+"/again", http.StatusFound)
	}))
	defer loop.Close()
	g := Guard{AllowNets: only(loop)}
	if resp, err := g.Client().Get(loop.URL); err == nil {
		resp.Body.Close()
		t.Error("a redirect loop was followed to the end")
	}
}

// only allows exactly the address s listens on.
func only(s *httptest.Server) []netip.Prefix {
	a := netip.MustParseAddrPort(s.Listener.Addr().String()).Addr()
	return []netip.Prefix{netip.PrefixFrom(a, a.BitLen())}
}

// standIn starts h on 127.0.0.3, the address the tests' guards let stand
// in for a public server (127.0.0.1, where the private targets and
// "localhost" live, stays refused).
func standIn(t *testing.T, h http.Handler) *httptest.Server {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.3:0")
	if err != nil {
		t.Skipf("cannot listen on 127.0.0.3: %v", err)
	}
	s := httptest.NewUnstartedServer(h)
	s.Listener.Close()
	s.Listener = l
	s.Start()
	return s
}

// NOTIFY_ALLOW_NETS lets outlets reach the networks the Owner names and no
// other private address: a home LAN allowed does not open loopback (in
// compose, the database and the browser sidecar) or the metadata service.
func TestAllowNetsOpensOnlyTheNetworksNamed(t *testing.T) {
	t.Parallel()
	g := Guard{AllowNets: []netip.Prefix{netip.MustParsePrefix("192.168.1.0/24")},
		Resolver: mapResolver{"ntfy.lan": {"192.168.1.20"}, "db": {"172.18.0.2"}}}
	for _, raw := range []string{"http://192.168.1.5/x", "http://[::ffff:192.168.1.5]/x", "https://ntfy.lan/topic"} {
		if err := g.Check(context.Background(), raw); err != nil {
			t.Errorf("Check(%q) = %v, want accepted (in the allowed network)", raw, err)
		}
	}
	for _, raw := range []string{"http://192.168.2.5/", "http://127.0.0.1:9222/", "http://db:5432/", "http://169.254.169.254/", "http://[2002:c0a8:105::1]/"} {
		if err := g.Check(context.Background(), raw); !IsPrivate(err) {
			t.Errorf("Check(%q) = %v, want a private-address refusal", raw, err)
		}
	}
	hit := make(chan struct{}, 10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hit <- struct{}{} }))
	defer srv.Close()
	lan := Guard{AllowNets: []netip.Prefix{netip.MustParsePrefix("127.0.0.3/32")}}
	if resp, err := lan.Client().Get(srv.URL); err == nil {
		resp.Body.Close()
		t.Fatal("a guard allowing 127.0.0.3 reached 127.0.0.1")
	} else if !IsPrivate(err) {
		t.Fatalf("GET %s: %v, want a private-address refusal", srv.URL, err)
	}
	if len(hit) != 0 {
		t.Fatal("the loopback server was reached")
	}
}

// A refusal carries the sentence a Reader reads, apart from the log form.
func TestRefusalsCarryAReason(t *testing.T) {
	t.Parallel()
	g := Guard{Resolver: mapResolver{"loop.example": {"127.0.0.1"}}}
	for raw, want := range map[string]string{
		"ftp://x.example/":        "the URL must be an absolute http:// or https:// URL",
		"http://127.0.0.1/":       "127.0.0.1 is a private or loopback address; use a public address",
		"http://loop.example/":    `"loop.example" resolves to 127.0.0.1, a private or loopback address; use a public address`,
		"http://nowhere.example/": `the host "nowhere.example" does not resolve; check the URL`,
		"http://0x7f000001/":      `the host "0x7f000001" looks like a number, not a name or a dotted address; write the address as a.b.c.d`,
	} {
		err := g.Check(context.Background(), raw)
		if got := Reason(err); got != want {
			t.Errorf("Reason(Check(%q)) = %q, want %q", raw, got, want)
		}
		if err == nil || !strings.HasPrefix(err.Error(), "netguard: ") {
			t.Errorf("Check(%q) = %v, want the log form with the package prefix", raw, err)
		}
	}
	if Reason(errors.New("other")) != "" || Reason(nil) != "" {
		t.Error("Reason of a foreign error is not empty")
	}
}

// Package browser is the browser route: it reads Site pages through a
// headless Chrome that already runs somewhere else (the sidecar), reached
// over the DevTools protocol at BROWSER_WS_URL. It is the only package that
// imports go-rod, and it uses only rod's protocol layer (lib/cdp, lib/proto):
// it never launches or downloads a browser.
//
// Design:
//
//   - Lazy connection. New only records the endpoint. The first Fetch (or
//     Ping) dials the sidecar, so a browser Lane held by its wake gate never
//     touches Chrome. An http://host:port endpoint is turned into the
//     browser's ws:// URL through /json/version.
//
//   - One tab. A Browser owns a single page target and lets one Fetch use it
//     at a time; the three browser Lanes queue on it (a one-slot semaphore
//     that honours the caller's context). The tab's ceiling is measured by
//     BenchmarkBrowserRead.
//
//   - In-page reads. Fetch navigates the tab to Request.Page and polls the
//     document until it is no longer a challenge interstitial (title, the
//     Cloudflare script host, #challenge-error-title, __cf_chl/cf_chl_opt
//     markers), bounded by the challenge wait (30s by default). Then, when
//     Request.Data is set, a same-origin fetch runs inside the solved page
//     and its status, headers and body come back; otherwise the page's HTML
//     comes back with its navigation status. Cookies never leave Chrome: a
//     Cloudflare clearance is tied to the browser that earned it, so the
//     read happens where the clearance lives.
//
//   - Classification contract. Fetch returns an error only when there is no
//     usable answer. A challenge still up at the deadline wraps
//     sites.ErrChallenge (refused). A refused, closed or lost sidecar
//     connection, or a crashed or closed tab, wraps sites.ErrUnreachable
//     (unreachable); the connection is then dropped and the next Fetch dials
//     again. A body over the size limit wraps sites.ErrTooLarge
//     (unfetchable), as on the plain route. Everything else (404 pages, 5xx,
//     a challenge the page still shows in its status and headers) comes back
//     as a Response for the sites classification to judge.
//
//   - No leaks across reconnects. Each connection has exactly one goroutine
//     of ours (the event pump) and one of rod's (the socket reader); both end
//     when the socket closes, and a dropped connection's tab is closed when
//     the sidecar still answers.
package browser

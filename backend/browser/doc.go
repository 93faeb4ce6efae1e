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
//     touches Chrome. The endpoint is a ws:// browser URL or an
//     http://host:port debugging address, resolved through /json/version
//     at each connect. A ws:// URL names one browser run; when a restarted
//     sidecar refuses it, the same host's /json/version gives the new one.
//
//   - One tab. A Browser owns a single page target and lets one Fetch use it
//     at a time; the three browser Lanes queue on it (a one-slot semaphore
//     that honours the caller's context). BenchmarkBrowserRead measures the
//     tab's ceiling. A read that fails for any reason but a challenge closes
//     the tab and the next Fetch opens a fresh one: Chrome queues a tab's
//     commands behind a navigation that never got an answer, so a hanging
//     Site would otherwise hold every later read. Cookies belong to the
//     browser, not the tab, so a passed challenge stays passed.
//
//   - In-page reads. Fetch navigates the tab to Request.Page and polls the
//     document (from an isolated world, so the page's scripts cannot change
//     what the poll sees) until it is loaded and no longer a challenge interstitial
//     (the titles Cloudflare uses, #challenge-error-title, _cf_chl_opt and
//     __cf_chl markers, or a challenges.cloudflare.com script on a 403, 429
//     or 503), bounded by the challenge wait (30s by default). Then, when
//     Request.Data is set, a same-origin fetch runs inside the solved page
//     and its status, headers and body come back (only Accept is passed on:
//     the page itself supplies Origin, Referer and cookies); otherwise the
//     page's HTML comes back with its navigation status and headers.
//     Cookies never leave Chrome: a Cloudflare clearance is bound to the
//     browser that earned it, so the read happens where the clearance lives.
//
//   - Hostile pages. Every connect (a restarted sidecar included) sets
//     Browser.setDownloadBehavior to deny, so a Site answering with an
//     attachment leaves no file on the sidecar. After every read the tab
//     goes to about:blank (the page is asked to replace itself, which ends
//     the old document at once in its own renderer; a page that cancels
//     that gets Page.navigate), so a page's timers and sockets do not run
//     on between reads. The document is read in one evaluation with its own
//     location.href, and a document that is not on the Site's hosts (a
//     page that sent the tab to a local service or to the sidecar's
//     DevTools port) is refused as a plain error (errors): nothing of it
//     is used. The Site's own HTTP redirect off its hosts stays ErrOffSite
//     (unfetchable), as on the plain route. The in-page data fetch reports the page it ran from the
//     same way.
//
//   - Classification contract. Fetch returns an error only when there is no
//     usable answer, wrapping the sites sentinel that classifies it:
//     sites.ErrChallenge (refused) for a challenge still up at the deadline;
//     sites.ErrUnreachable (unreachable) for a sidecar that refuses, closes
//     or loses the connection or stops answering (the connection is then
//     dropped and the next Fetch dials again), and for
//     a read whose context ended while it queued for the tab (ErrTabBusy:
//     it never reached the page);
//     sites.ErrTooLarge, ErrTooManyRedirects, ErrOffSite and ErrWrongType
//     (unfetchable) for a body over the limit (5 MiB), a redirect loop, a
//     redirect off the Site, or a document Chrome would download rather than
//     show; sites.ErrTooLarge too for a page that makes Chrome send a
//     DevTools message over the frame bound (only page-supplied values grow
//     one that far: the connection is dialled again by the next Fetch, the
//     sidecar not lost); sites.ErrPageCrashed (unfetchable) for a tab whose renderer
//     died under the read while the browser, asked at once, still answers
//     (the page's doing: only the tab is replaced, the connection kept, so
//     the other browser Lanes read on; a browser that does not answer is
//     unreachable); anything else (a Site that refuses connections, a timeout) is a
//     plain error (errors). A page that loads, whatever its status (404,
//     503), is a Response for the sites classification to judge.
//
//   - No leaks across reconnects. Each connection has exactly one goroutine
//     of ours (the event pump) and one of rod's (the socket reader); both end
//     when the socket closes. The tab of a lost connection is closed on the
//     next connect when the browser outlived the connection.
package browser

// Package sitesim is a local stand-in for the six Sites: one in-process
// simulator serving each Site in its own format (MangaDex's JSON API,
// WeebCentral's and MangaPill's HTML, Kagane's JSON API, Comix's title page
// with its React Query cache holding the Latest Chapter aggregate (its
// retired chapter API answering 404, its own "Security check" WAF page on
// demand through Behavior.WAF), Natomanga's page and chapter JSON) on its
// own loopback port, so tests, the demo and benchmarks never touch the
// internet. Natomanga's port also answers as the family's bare host
// (BareOrigin, localhost), redirecting to the www stand-in (Origin), and
// WeebCentral answers a Series it does not have with 307 to its /404 page,
// which answers 200, as the live Sites do.
//
// The formats follow the real Sites' shapes, variations included, so every
// adapter meets them in every Lane test and in the demo: WeebCentral rows
// labelled with the source's own word (Chapter, Episode, Navigation,
// Suggestion) with an occasional number-less "Epilogue" row, and chapter
// links on https://weebcentral.com as the real list's; MangaDex feeds
// answered without the language filter (other languages numbered ahead),
// licensed titles whose English chapters are all external links with no
// pages, null chapter titles, manga titled only in ja-ro or in altTitles;
// a MangaPill header with its own h1; Natomanga
// chapter rows whose number is only in chapter_slug or disagrees with
// chapter_num.
//
// Series are generated from their index, so any number per Site costs no
// memory: only behaviour overrides are stored. Ids have each Site's real
// shape (UUID for MangaDex, ULID for WeebCentral, a number for MangaPill,
// hid-slug for Comix, a slug for Natomanga, a UUIDv7-like id for Kagane).
//
// Usage:
//
//	sim, err := sitesim.New(sitesim.Config{SeriesPerSite: 100, Now: clock.Now})
//	if err := sim.Start(); err != nil { ... }   // or StartOn("127.0.0.1:18080")
//	defer sim.Close()
//	reg, _ := registry.New(sim.Origins())       // SITE_ORIGINS = sim.OriginsValue()
//	ids := sim.SeriesIDs("mangadex", 10)
//	ref, _ := reg.Canonicalize(sim.SeriesURL("mangadex", ids[0]))
//	sim.SetSeries("mangadex", ids[1], sitesim.Behavior{Mode: sitesim.Gone})
//	sim.SetSite("weebcentral", sitesim.Behavior{NewEvery: time.Hour})
//	want := sim.Latest("mangadex", ids[0])      // "105" or "105.5"
//
// MangaDex and Comix Series carry external ids as the real pages do
// (links.go): MangaDex's attributes.links holds bare ids, Comix's title
// page holds links to the catalogues' pages. The rule is a pure function
// of the index, the same in every run: Series k on MangaDex and Series k
// on Comix are one story sharing al, mu and md ids exactly when
// SharesIDs(k) (k divisible by four), and Comix k then names MangaDex k's
// title among its altTitles; for k ≡ 1 (mod 4) MangaDex names an al id
// and Comix a mu id, so nothing is shared; for k ≡ 2 both name al ids that
// differ; for k ≡ 3 neither carries a link. Links(site, k) is what each
// adapter reads, so tests and the Works benchmark can count on it.
//
// Behaviour is scripted per Site (SetSite) or per Series (SetSeries, which
// wins): steady, a new chapter every NewEvery of simulated time (read from
// Config.Now), gone, changed layout, 5xx, slow, hanging, oversized or endless
// bodies, redirects away or in a loop, a huge Content-Length, malformed or
// wrongly typed bodies, a Cloudflare challenge, and a script challenge that
// only a real browser passes (JSChallenge) or that never clears
// (JSChallengeStuck). Behaviour applies to a Series' pages and data, not to
// cover images, which are always small real PNG or JPEG images.
//
// Each Site also serves its reader (chapter) pages in the real structure
// (ReaderURL; reader_pages.go, reader_ids.go): the Series link, the
// chapter's label and, for the single-page apps, a late render, so the
// userscript's browser tests read them as on the real Site. No failure mode
// applies to them.
package sitesim

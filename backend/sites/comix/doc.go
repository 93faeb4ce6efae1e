// Package comix reads Comix through the browser route in one step, the
// way the newest public clients read the Site's own aggregate: the route
// opens the title page /title/{hid}-{slug} (passing any challenge: the
// Cloudflare one and the Site's own "Security check" WAF under /@waf/)
// and returns its HTML, whose <script id="initial-data"> is a React Query
// cache {"page": ..., "queries": {"[\"manga\",\"detail\",\"{hid}\"]":
// {manga}}}. The manga detail holds the title, the poster and the Latest
// Chapter: latestChapter (the number), latestChapterUrl
// (/title/{hid}-{slug}/{id}-chapter-{n}, linked on the Site's origin only
// when it has exactly that shape for this Series and number),
// chapterUpdatedAtFormatted ("9h ago", read against the adapter's clock)
// and hasChapters. A null detail is not_found; a page without the cache,
// hasChapters false or no usable number is no_chapter.
//
// The chapter API (/api/v2/manga/{hid}/chapters) was retired on
// 2026-05-07 and answers 404; its /api/v1 successor needs a per-request
// signature made by the page's obfuscated script and answers encrypted.
// The adapter asks neither, so no API answer can ever mark a Series gone.
//
// Series ids are the whole "{hid}-{slug}" path segment, since the page is
// only reachable with it; URLs giving only the hid yield the bare hid.
package comix

// Package comix reads Comix through the browser route in two steps, the
// way the live title page and keiyoushi's Comix source do:
//
//  1. the route opens the title page (passing any challenge) and returns
//     its HTML, whose <script id="initial-data"> is a React Query cache
//     {"page": ..., "queries": {"[\"manga\",\"detail\",\"{hid}\"]": {manga}}}
//     holding the manga detail (title, poster) but no chapter list; a null
//     detail is not_found;
//  2. from inside that page the route fetches the Site's chapter API,
//     /api/v2/manga/{hid}/chapters?order[number]=desc&limit=100&page=1,
//     answering {"result": {"items": [{chapter_id, number, name,
//     created_at, ...}], "pagination": {...}}}.
//
// Series ids are the whole "{hid}-{slug}" path segment, since the page is
// only reachable with it; URLs giving only the hid yield the bare hid.
//
// Chapter numbers: an item's "number" (a JSON number or numeric string);
// items without a usable one are skipped and counted. The highest number
// wins; created_at is a Unix time. Newer deployments sign this API and
// encrypt its answer ({"e": "..."}) with the page's own script; such an
// answer is no_chapter with an error saying so.
package comix

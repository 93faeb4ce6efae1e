// Package mangadex reads MangaDex over its JSON API (plain route): the
// Series' title and cover from /manga/{id}?includes[]=cover_art and its
// Latest Chapter from /manga/{id}/feed.
//
// Titles: English, then romanised Japanese (ja-ro), then any language;
// a manga untitled in every language takes the same order from altTitles.
//
// Chapter numbers: the feed's "chapter" attribute is a string or null.
// Only English rows count (translatedLanguage is checked here, not trusted
// to the query). Rows whose chapter is null or not a plain decimal
// (oneshots, specials, "S2-3") are skipped. External chapters (pages 0,
// externalUrl set: an officially licensed title on MANGA Plus or VIZ) are
// real releases: they count, linked to their external URL, which is why
// the query sends no includeEmptyPages filter. Among the rest the highest
// number wins. A feed with no such row is no_chapter.
package mangadex

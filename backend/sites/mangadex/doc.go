// Package mangadex reads MangaDex over its JSON API (plain route): the
// Series' title and cover from /manga/{id}?includes[]=cover_art and its
// Latest Chapter from /manga/{id}/feed.
//
// Chapter numbers: the feed's "chapter" attribute is a string or null.
// Rows whose chapter is null or not a plain decimal (oneshots, specials,
// "S2-3") are skipped, as are external chapters with no pages; among the
// rest the highest number wins. A feed with no such row is no_chapter.
package mangadex

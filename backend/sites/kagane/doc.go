// Package kagane reads Kagane's JSON API through the browser route: the
// route opens the Series page (passing any challenge), then fetches
// /api/v2/series/{id} from inside it. The details carry the title, the
// cover image id (served at /api/v2/image/{id}) and every book
// (series_books, ascending). Details without series_books are an empty
// list (no_chapter), as in keiyoushi's DTO; no other endpoint is asked,
// since no public client knows one.
//
// Fields read follow keiyoushi's Kagane DTOs: title, series_covers[].image_id,
// series_books[] with book_id, title, created_at ("2006-01-02T15:04:05",
// no zone, read as UTC), sort_no and chapter_no (a string or null).
//
// Chapter numbers: a book's chapter_no when it is a plain decimal; when it
// is null, the number in the book's title ("Episode 251"); books with
// neither (specials, extras) are skipped and counted. Among the rest the
// book with the highest sort_no is the Latest Chapter. No such book:
// no_chapter.
package kagane

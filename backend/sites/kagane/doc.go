// Package kagane reads Kagane's JSON API through the browser route: the
// route opens the Series page (passing any challenge), then fetches
// /api/v2/series/{id} from inside it. The details carry the title, the
// cover image id (served at /api/v2/image/{id}) and every book
// (series_books, ascending).
//
// Chapter numbers: a book's chapter_no (a string or null) is the number
// when it is a plain decimal; books without one (specials, extras) are
// skipped. Among the rest the book with the highest sort_no is the Latest
// Chapter. No such book, or no series_books: no_chapter.
package kagane

package sitesim

import "strconv"

// translationKey is the chapter key base of MangaDex's rows in other
// languages: far above any real chapter's key, so the ids never collide.
const translationKey = 0xff000

// translationLangs are the languages of those rows, in feed order.
var translationLangs = []string{"fr", "es-la", "pt-br"}

// hasTranslations reports whether a MangaDex Series' feed carries rows in
// other languages, numbered past its English Latest Chapter.
func hasTranslations(x simSeries) bool { return x.i%7 == 2 }

// translationNumber is the chapter number of translation row k: the
// other languages run up to three chapters ahead of the English one.
func translationNumber(x simSeries, k int) string { return strconv.Itoa(x.latest + 3 - k) }

// translationReader is the reader page's chapter for a translation row's
// id (i<<20 | translationKey+k): the row's own number, as the real reader
// shows it, never the key.
func (s *Sim) translationReader(n uint64, id string) (readerChapter, bool) {
	i, k := int(n>>20), int(n&0xfffff)-translationKey
	if k < 0 || k >= len(translationLangs) || mangadexChapterID(i, translationKey+k) != id {
		return readerChapter{}, false
	}
	if _, ok := s.lookup(MangaDex, seriesID(MangaDex, i)); !ok {
		return readerChapter{}, false
	}
	x := s.series(MangaDex, i, s.behavior(MangaDex, seriesID(MangaDex, i)))
	if !hasTranslations(x) {
		return readerChapter{}, false
	}
	return readerChapter{x: x, number: translationNumber(x, k)}, true
}

package sitesim

import (
	"fmt"
	"strconv"
	"strings"
)

// readerChapter is the chapter a reader page shows: its Series and number
// ("" for a special without one).
type readerChapter struct {
	x      simSeries
	number string
}

// keyNumber inverts chapterKey: 0 (and Kagane's 1) is the special, else
// whole*2 (+1 for ".5") + 2.
func keyNumber(key int) (string, bool) {
	if key <= 1 {
		return "", true
	}
	k := key - 2
	if k < 2 { // chapter numbers start at 1
		return "", false
	}
	if k%2 == 1 {
		return strconv.Itoa(k/2) + ".5", true
	}
	return strconv.Itoa(k / 2), true
}

// numberKey is chapterKey for a chapter number ("105", "105.5").
func numberKey(number string) (int, bool) {
	whole, frac, _ := strings.Cut(number, ".")
	w, err := strconv.Atoi(whole)
	if err != nil || w < 1 || (frac != "" && frac != "5") {
		return 0, false
	}
	k := w*2 + 2
	if frac == "5" {
		k++
	}
	return k, true
}

// readerSeries finds the Series and number a chapter id encodes
// (i<<20 | chapterKey), checking that the id round-trips.
func (s *Sim) readerSeries(site string, n uint64, id func(i, key int) string, want string) (readerChapter, bool) {
	i, key := int(n>>20), int(n&0xfffff)
	if _, ok := s.lookup(site, seriesID(site, i)); !ok || !strings.EqualFold(id(i, key), want) {
		return readerChapter{}, false
	}
	num, ok := keyNumber(key)
	if !ok {
		return readerChapter{}, false
	}
	return readerChapter{x: s.series(site, i, s.behavior(site, seriesID(site, i))), number: num}, true
}

func mangadexChapterID(i, key int) string {
	return uuidFor("chapter", 4, uint64(i)<<20|uint64(key), 2)
}

func weebcentralChapterID(i, key int) string { return ulidFor(uint64(i)<<20|uint64(key), 7) }

func kaganeBookID(i, key int) string {
	return "019c" + uuidFor("book", 7, uint64(i)<<20|uint64(key), 8)[4:]
}

// ReaderURL is the URL of the reader page of chapter number (as "105" or
// "105.5") of a Series, on the simulator's origin, in the Site's real
// reader URL shape; "" for an unknown Site, Series or number.
func (s *Sim) ReaderURL(site, id, number string) string {
	i, ok := s.lookup(site, id)
	key, okN := numberKey(number)
	if !ok || !okN {
		return ""
	}
	o := s.Origin(site)
	switch site {
	case MangaDex:
		return o + "/chapter/" + mangadexChapterID(i, key)
	case WeebCentral:
		return o + "/chapters/" + weebcentralChapterID(i, key)
	case Kagane:
		return o + "/series/" + id + "/reader/" + kaganeBookID(i, key)
	case MangaPill:
		f, _ := strconv.ParseFloat(number, 64)
		return fmt.Sprintf("%s/chapters/%s-1%06d/%s-chapter-%s", o, id, int(f*1000+0.5), slugify(title(site, i)), strings.ReplaceAll(number, ".", "-"))
	case Comix:
		return fmt.Sprintf("%s/title/%s/%d-chapter-%s", o, id, i*10000+key, number)
	case Natomanga:
		return o + "/manga/" + id + "/chapter-" + strings.ReplaceAll(number, ".", "-")
	}
	return ""
}

package sitesim

import (
	"strconv"
	"time"
)

// listMax bounds how many chapter rows a page lists, keeping pages small.
const listMax = 30

// simSeries is one generated Series at one simulated instant.
type simSeries struct {
	site   string
	i      int
	id     string
	title  string
	slug   string
	latest int  // highest whole chapter
	half   bool // a "latest.5" chapter tops the list
	odd    bool // a "Special" row without a chapter number tops the list
	epoch  time.Time
	base   int
	every  time.Duration
	// pub holds the times of the chapters Publish drew, published by now;
	// they are numbered pubBase+1 and up.
	pub     []time.Time
	pubBase int

	hostile Behavior // TitleHTML and CoverURL overrides
}

func (s *Sim) series(site string, i int, b Behavior) simSeries {
	h := hash64("series", site, i)
	x := simSeries{site: site, i: i, id: seriesID(site, i), title: title(site, i), slug: slugify(title(site, i)),
		base: 5 + int(h%300), half: i%13 == 5, odd: i%10 == 7, epoch: s.cfg.Epoch, every: b.NewEvery, hostile: b}
	x.latest = x.base
	if b.NewEvery > 0 {
		if el := s.cfg.Now().Sub(s.cfg.Epoch); el > 0 {
			x.latest += int(el / b.NewEvery)
		}
	}
	if pub := s.published(site, i, s.cfg.Now()); len(pub) > 0 {
		x.pub, x.pubBase = pub, x.latest
		x.latest += len(pub)
	}
	return x
}

// chapter is one row of a chapter list, newest first.
type chapter struct {
	whole  int    // whole part; -1 for a special without a number
	number string // "105", "105.5", or "" for a special
	name   string // "Chapter 105.5", "Special 2"
	at     time.Time
}

func (x simSeries) latestNumber() string {
	if x.half {
		return strconv.Itoa(x.latest) + ".5"
	}
	return strconv.Itoa(x.latest)
}

func (x simSeries) released(k int, half bool) time.Time {
	if j := k - x.pubBase - 1; len(x.pub) > 0 && j >= 0 && j < len(x.pub) {
		return x.pub[j].UTC()
	}
	if k > x.base && x.every > 0 {
		t := x.epoch.Add(time.Duration(k-x.base) * x.every)
		if half {
			t = t.Add(x.every / 2)
		}
		return t.UTC()
	}
	t := x.epoch.Add(-time.Duration(x.base-k)*7*24*time.Hour - 3*time.Hour)
	if half {
		t = t.Add(time.Hour)
	}
	return t.UTC()
}

// chapters lists up to listMax rows, newest first. withSpecial adds the
// Special row (for Sites whose rows carry names) on top for odd Series.
func (x simSeries) chapters(withSpecial bool) []chapter {
	var out []chapter
	if withSpecial && x.odd {
		out = append(out, chapter{whole: -1, name: "Special 2", at: x.released(x.latest, true).Add(time.Minute)})
	}
	if x.half {
		n := strconv.Itoa(x.latest) + ".5"
		out = append(out, chapter{whole: x.latest, number: n, name: "Chapter " + n, at: x.released(x.latest, true)})
	}
	for k := x.latest; k >= 1 && len(out) < listMax; k-- {
		n := strconv.Itoa(k)
		out = append(out, chapter{whole: k, number: n, name: "Chapter " + n, at: x.released(k, false)})
	}
	return out
}

// chapterKey numbers a row uniquely within its Series (for chapter ids).
func chapterKey(c chapter) int {
	if c.whole < 0 {
		return 0
	}
	k := c.whole * 2
	if len(c.number) > len(strconv.Itoa(c.whole)) {
		k++
	}
	return k + 2
}

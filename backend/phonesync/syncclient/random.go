package syncclient

import (
	"fmt"
	"math/rand/v2"

	"mangabookmark/backend/imports/tachibk/tachibktest"
)

// MangaPill as a backup names it (docs/sources.md ("Phone sync") §4).
const (
	PillName   = "MangaPill"
	PillSource = int64(8448310129093543312)
)

// RandomBackup is a library of n manga built with tachibktest, drawn
// from r: MangaPill manga and manga of sources no Site stands for,
// favourites and not, chapters read, unread and partly read with
// versions and times, tracking rows, history, a fork's fields, the
// legacy source list and preferences, so a server's answer can be held
// to it byte for byte.
func RandomBackup(r *rand.Rand, n int) tachibktest.Backup {
	b := tachibktest.Backup{Sources: []tachibktest.Source{{Name: PillName, ID: PillSource}, {Name: "Elsewhere", ID: 77}},
		Preferences: r.IntN(2) == 0}
	if r.IntN(3) == 0 {
		b.LegacySources = []tachibktest.Source{{Name: "Old", ID: 5}}
	}
	base := int64(1_780_000_000)
	for i := range n {
		m := tachibktest.Manga{Source: PillSource, URL: fmt.Sprintf("/manga/%d/t-%d", r.IntN(100000)+1, i),
			Title: fmt.Sprintf("Title %d", i), LastModifiedAt: base + r.Int64N(1000), Version: r.Int64N(5), Fork: r.IntN(4) == 0}
		if r.IntN(3) == 0 {
			m.Source, m.URL = 77, fmt.Sprintf("/elsewhere/%d", i)
		}
		if r.IntN(5) == 0 {
			m.Favorite = tachibktest.Bool(r.IntN(2) == 0)
		}
		chapters, read := r.IntN(12), 0
		if chapters > 0 {
			read = r.IntN(chapters + 1)
		}
		for c := 1; c <= chapters; c++ {
			m.Chapters = append(m.Chapters, tachibktest.Chapter{URL: fmt.Sprintf("/chapters/%d-%d", i, c), Name: fmt.Sprintf("Chapter %d", c),
				Read: c <= read, Number: float32(c) + float32(r.IntN(2))/2, DateFetch: base * 1000,
				LastModifiedAt: base + r.Int64N(1000), Version: r.Int64N(4)})
		}
		if read > 0 {
			m.History = []tachibktest.History{{URL: fmt.Sprintf("/chapters/%d-%d", i, read), LastRead: (base + 5) * 1000}}
		}
		if r.IntN(3) == 0 {
			m.Tracking = []tachibktest.Track{{SyncID: 2, MediaID: int64(r.IntN(200000) + 1)}}
		}
		b.Manga = append(b.Manga, m)
	}
	return b
}

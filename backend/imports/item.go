package imports

import (
	"errors"
	"time"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/store"
)

// Kinds of import, as the contract names them.
const (
	KindURLs         = "urls"
	KindMangaDexList = "mangadex_list"
	KindTachibk      = "tachibk"
	KindCSV          = "csv"
	KindJSON         = "json"
)

// MaxBodyBytes is the largest import body accepted (32 MiB); every other
// request keeps the API's 1 MiB.
const MaxBodyBytes = 32 << 20

// MaxItems is the most Series one import may name: twice the bookmarks a
// Reader may keep, so a whole library with its dropped entries fits and a
// file of a million rows is refused before any work.
const MaxItems = 10000

// ErrTooLarge marks an import past a bound (answered 413); the error's
// text says which.
var ErrTooLarge = errors.New("imports: too large")

// ErrTooMany marks an import refused because the Reader has too many
// still running or waiting (answered 429); the error's text says how many.
var ErrTooMany = errors.New("imports: too many unfinished")

// ErrUnreadable marks a file that cannot be read as its kind (answered
// 400); the error's text says why.
var ErrUnreadable = errors.New("imports: unreadable")

// Item is one Series a file names, before the Site resolver has placed it.
type Item struct {
	Label  string     // what the Reader sees for it ("https://…", "MangaDex: Frieren")
	URL    string     // a Series or chapter URL
	Number string     // Progress to apply, normalised ("" for none)
	ReadAt *time.Time // when Number was read (nil: the import's time)
	// NotifyMode is a new bookmark's notice mode ("" for the default).
	NotifyMode string
	// NotifyPile and NotifyPileDays are a new pile bookmark's thresholds
	// (0 for the default), from this server's own export.
	NotifyPile, NotifyPileDays int
	// State is a new bookmark's reading state ("" keeps the default),
	// from this server's own export.
	State string
	// IDs are the Series' external ids the file names (a backup's tracking
	// rows, our own export's ids): stored with source "import".
	IDs []sites.ExternalID
	// Suggest are other Series URLs the file says are the same story (a
	// TachiyomiSY merged entry): suggestions to the Reader, never links.
	Suggest []string
	// Title is the story's title as the file gives it ("" for none): a
	// backup's manga title, an export's or a CSV's "title". The Reader's
	// word, shown on their card until a Lane reads the Series' own.
	Title string
}

// Parsed is a decoded file: the items to resolve and what the decoder
// already knows it cannot import.
type Parsed struct {
	Kind        string
	Source      string // the MangaDex list URL of a mangadex_list import
	Items       []Item
	Unsupported []store.ImportProblem
}

// add appends an item, refusing past MaxItems.
func (p *Parsed) add(it Item) error {
	if len(p.Items)+len(p.Unsupported) >= MaxItems {
		return tooMany()
	}
	p.Items = append(p.Items, it)
	return nil
}

// skip records an item the import cannot bring in, refusing past MaxItems.
func (p *Parsed) skip(item, reason string) error {
	if len(p.Items)+len(p.Unsupported) >= MaxItems {
		return tooMany()
	}
	p.Unsupported = append(p.Unsupported, store.ImportProblem{Item: item, Reason: reason})
	return nil
}

func tooMany() error {
	return errorf(ErrTooLarge, "the file names more than %d Series, more than one import may hold (a Reader keeps at most 5000 bookmarks); split it and import the parts", MaxItems)
}

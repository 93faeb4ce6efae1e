package comix

import (
	"encoding/json"

	"mangabookmark/backend/sites"
)

// status reads the manga detail's status word (releasing in every saved
// page; on_hiatus, finished and discontinued as keiyoushi's Comix
// extension names them) and its final chapter, finalChapter on the live
// page and final_chapter in the older cache: a number, where 0 is "no
// final chapter known" (docs/sources.md ("Status and time") §3). A value
// of the wrong type is no status or no final chapter, never a failed read.
func status(m manga) (string, string) {
	var word string
	if json.Unmarshal(m.Status, &word) != nil {
		word = ""
	}
	final := ""
	for _, raw := range []json.RawMessage{m.FinalChapter, m.FinalChapterSnake} {
		if len(raw) == 0 {
			continue
		}
		if n, ok := sites.NumberFromJSON(raw); ok && n != "0" {
			final = n
			break
		}
	}
	return sites.StatusWord(word), final
}

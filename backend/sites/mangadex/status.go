package mangadex

import (
	"encoding/json"

	"mangabookmark/backend/sites"
)

// status reads the manga entity's attributes.status (ongoing, completed,
// hiatus, cancelled) and lastChapter, the final chapter: a nullable string,
// "" or null while the story runs (docs/sources.md ("Status and time")
// §2). A status of another type is none; a lastChapter that is no chapter
// number ("", null, "Epilogue") is no final chapter. The final chapter is
// kept whatever the status: MangaDex fills it in when the story ends, and
// "completed" alone does not say the last chapter is out.
func status(rawStatus, rawLast json.RawMessage) (string, string) {
	var word string
	if json.Unmarshal(rawStatus, &word) != nil {
		word = ""
	}
	final := ""
	if len(rawLast) > 0 {
		if n, ok := sites.NumberFromJSON(rawLast); ok && n != "0" {
			final = n
		}
	}
	return sites.StatusWord(word), final
}

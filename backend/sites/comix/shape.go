package comix

import (
	"encoding/json"

	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/internal/dom"
)

var _ sites.Shaper = Adapter{}

// detailFields are the manga detail's fields the adapter reads, as the
// fixtures (the 2026-10-06 capture's shape) have them.
var detailFields = []string{"title", "poster.large", "latestChapter", "latestChapterUrl", "chapterUpdatedAtFormatted", "hasChapters", "altTitles", "links"}

// Shape checks the title page: the initial-data script, its manga detail
// entry and the detail's fields.
func (Adapter) Shape(req sites.Request, body []byte) []sites.Field {
	if req.Data != "" {
		return nil
	}
	out := []sites.Field{{Name: "script#initial-data"}, {Name: `queries["manga","detail",…]`}}
	var detail json.RawMessage
	if doc, err := dom.Parse(body); err == nil {
		if script := dom.ByID(doc, "initial-data"); script != nil && dom.Is(script, "script") && script.FirstChild != nil {
			out[0].Found = true
			var data struct {
				Queries map[string]json.RawMessage `json:"queries"`
			}
			if json.Unmarshal([]byte(script.FirstChild.Data), &data) == nil {
				for key, raw := range data.Queries {
					if isDetailKey(key) {
						out[1].Found, detail = true, unwrap(raw)
						break
					}
				}
			}
		}
	}
	for _, f := range sites.JSONFields(detail, detailFields...) {
		f.Name = "detail." + f.Name
		out = append(out, f)
	}
	return out
}

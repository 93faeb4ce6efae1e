package mangadex

import (
	"strings"

	"mangabookmark/backend/sites"
)

var _ sites.Shaper = Adapter{}

// Shape checks the manga entity and the feed for the fields the fixtures
// (the API docs' entities) have.
func (Adapter) Shape(req sites.Request, body []byte) []sites.Field {
	if strings.Contains(req.Target(), "/feed") {
		return sites.JSONFields(body, "data[]", "data[].id", "data[].attributes.chapter", "data[].attributes.title",
			"data[].attributes.translatedLanguage", "data[].attributes.externalUrl", "data[].attributes.pages", "data[].attributes.publishAt")
	}
	return sites.JSONFields(body, "data.id", "data.attributes.title", "data.attributes.altTitles", "data.attributes.links", "data.attributes.status",
		"data.relationships[].type", "data.relationships[].attributes.fileName")
}

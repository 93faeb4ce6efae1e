package kagane

import "mangabookmark/backend/sites"

var _ sites.Shaper = Adapter{}

// Shape checks the details answer for the fields the fixtures (keiyoushi's
// DetailsDto) have.
func (Adapter) Shape(req sites.Request, body []byte) []sites.Field {
	if req.Data == "" {
		return nil
	}
	return sites.JSONFields(body, "title", "series_covers[].image_id", "series_books[]", "series_books[].book_id",
		"series_books[].title", "series_books[].sort_no", "series_books[].chapter_no", "series_books[].created_at")
}

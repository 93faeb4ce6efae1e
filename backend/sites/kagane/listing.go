package kagane

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"mangabookmark/backend/sites"
)

// Listing bounds. keiyoushi asks 35 a page and FMD2 100 of the same
// endpoint, so 100 is accepted; the Lane reads page 2 at most.
const (
	ListingSize    = 100
	maxListingPage = 10
)

// listingBody is the search's filter: every source type, as keiyoushi's
// default sends it (no title, no genre, no language filter: a followed
// Series may be in any language).
var listingBody = []byte(`{"source_type":["Official","Unofficial","Mixed"]}`)

var (
	_ sites.Lister        = Adapter{}
	_ sites.ListingShaper = Adapter{}
)

// ListingShape checks a search page for the SearchDto fields the listing
// reads.
func (Adapter) ListingShape(body []byte) []sites.Field {
	return sites.JSONFields(body, "content[]", "content[].series_id", "content[].current_books", "last")
}

// ListingURL is the search the listing POSTs for page (1-based): the
// Series most recently updated first, as keiyoushi's getLatestUpdates
// sorts it.
func ListingURL(s *sites.Site, page int) string {
	return s.Base() + "/api/v2/search/series?page=" + strconv.Itoa(page-1) + "&size=" + strconv.Itoa(ListingSize) + "&sort=updated_at,desc"
}

// listingRequest opens the home page (the challenge is passed there) and
// POSTs the search from inside it, as Read fetches the details.
func listingRequest(s *sites.Site, page int) sites.Request {
	base := s.Base()
	return sites.Request{Site: s, Page: base + "/", Data: ListingURL(s, page), Method: http.MethodPost,
		Body: listingBody, ContentType: "application/json", Accept: "application/json",
		Header: map[string][]string{"Origin": {base}, "Referer": {base + "/"}}}
}

// Listing reads one page of the Series most recently updated.
func (a Adapter) Listing(ctx context.Context, s *sites.Site, f sites.Fetcher, page int) sites.Listing {
	if page < 1 || page > maxListingPage {
		return sites.Listing{Outcome: sites.OK}
	}
	resp, res, ok := sites.Fetch(ctx, f, listingRequest(s, page), sites.JSON)
	if !ok {
		return sites.ListingFail(res)
	}
	l := ParseListing(resp.Body)
	l.Status = resp.Status
	return l
}

type searchPage struct {
	Content *[]searchItem `json:"content"`
	Last    *bool         `json:"last"`
}

type searchItem struct {
	SeriesID       string          `json:"series_id"`
	CurrentBooks   json.RawMessage `json:"current_books"`
	LatestChapters []struct {
		ChapterNo json.RawMessage `json:"chapter_no"`
	} `json:"latest_chapters"`
}

// ParseListing reads a search page (keiyoushi's SearchDto, a Spring page):
// content[] newest first, each line's Series its series_id (an id the
// adapter's SeriesID would not accept drops the line), its mark the
// book count current_books (so a Series that stays on top still moves),
// and More unless last is true. The page gives no time, and a chapter
// number only in latest_chapters[].chapter_no, which no vouched client
// reads: it is taken when present and well-formed (the greatest), and a
// wrong one costs one read. A page without content is no_chapter (the
// API changed); a body that is not JSON is unfetchable.
func ParseListing(body []byte) sites.Listing {
	var p searchPage
	if err := json.Unmarshal(body, &p); err != nil {
		return sites.Listing{Outcome: sites.Unfetchable, Err: fmt.Errorf("kagane: listing: %w: %w", err, sites.ErrUnusable)}
	}
	if p.Content == nil {
		return sites.Listing{Outcome: sites.NoChapter, Err: fmt.Errorf("kagane: the listing carries no content; the API changed")}
	}
	l := sites.Listing{Outcome: sites.OK, More: p.Last != nil && !*p.Last}
	for _, it := range *p.Content {
		id, ok := listingID(it.SeriesID)
		if !ok {
			l.Dropped++
			continue
		}
		e := sites.ListingEntry{SeriesID: id}
		if n, err := strconv.Atoi(string(bytes.TrimSpace(it.CurrentBooks))); err == nil && n >= 0 {
			e.Mark = strconv.Itoa(n)
		}
		for _, c := range it.LatestChapters {
			if n, ok := sites.NumberFromJSON(c.ChapterNo); ok && (e.Number == "" || sites.CompareNumbers(n, e.Number) > 0) {
				e.Number = n
			}
		}
		l.Add(e)
	}
	return l
}

// listingID is the Series id of a search line, by the rule SeriesID
// applies to a URL's segment: the whole value, nothing around it.
func listingID(raw string) (string, bool) {
	id := strings.ToLower(raw)
	return id, uuidRe.MatchString(id) || b32Re.MatchString(id)
}

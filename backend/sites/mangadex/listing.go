package mangadex

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"mangabookmark/backend/sites"
)

// ListingPageSize is how many chapters one listing page asks for: the most
// GET /chapter answers at once.
const ListingPageSize = 100

// listingReach is the API's bound on offset+limit of one collection.
const listingReach = 10000

// listingQuery asks for the newest English chapters of every content
// rating, in the order the Site's own "latest updates" page uses
// (readableAt; publishAt puts far-future placeholder dates on top), none
// published in the future, and, like feedQuery, without includeEmptyPages:
// external chapters are real releases.
const listingQuery = "translatedLanguage[]=" + Language + "&order[readableAt]=desc&includeFuturePublishAt=0" +
	"&contentRating[]=safe&contentRating[]=suggestive&contentRating[]=erotica&contentRating[]=pornographic" +
	"&limit=100"

var _ sites.Lister = Adapter{}

// Listing fetches one page of GET /chapter, the newest English chapters.
func (Adapter) Listing(ctx context.Context, s *sites.Site, f sites.Fetcher, page int) sites.Listing {
	if page < 1 || (page-1)*ListingPageSize+ListingPageSize > listingReach {
		return sites.Listing{Outcome: sites.OK}
	}
	api, _ := hosts(s)
	req := sites.Request{Site: s, Accept: "application/json",
		Page: api + "/chapter?" + listingQuery + "&offset=" + strconv.Itoa((page-1)*ListingPageSize)}
	resp, res, ok := sites.Fetch(ctx, f, req, sites.JSON)
	if !ok {
		return sites.ListingFail(res)
	}
	l := ParseListing(resp.Body)
	l.Status = resp.Status
	return l
}

type listingBody struct {
	envelope
	Offset int `json:"offset"`
	Total  int `json:"total"`
	Data   []struct {
		Attributes struct {
			Chapter    *string `json:"chapter"`
			Language   string  `json:"translatedLanguage"`
			ReadableAt string  `json:"readableAt"`
		} `json:"attributes"`
		Relationships []struct {
			ID   string `json:"id"`
			Type string `json:"type"`
		} `json:"relationships"`
	} `json:"data"`
}

// ParseListing reads a GET /chapter collection: each row's Series is its
// relationship of type manga (a lower-case UUID, else the row is dropped),
// its number the chapter attribute when it is a plain number, its time
// readableAt. Rows in another language are dropped. More is set while the
// collection has rows past this page within the API's reach.
func ParseListing(body []byte) sites.Listing {
	var lb listingBody
	if err := json.Unmarshal(body, &lb); err != nil {
		return sites.Listing{Outcome: sites.Unfetchable, Err: fmt.Errorf("mangadex: listing: %w: %w", err, sites.ErrUnusable)}
	}
	if lb.Result == "error" {
		out, err := lb.errorOutcome()
		if out == sites.NotFound { // a listing is never "gone"
			out = sites.Unfetchable
		}
		return sites.Listing{Outcome: out, Err: err}
	}
	if lb.Result != "ok" {
		return sites.Listing{Outcome: sites.NoChapter, Err: fmt.Errorf("mangadex: listing body is not a collection (result %q)", lb.Result)}
	}
	l := sites.Listing{Outcome: sites.OK}
	for _, row := range lb.Data {
		a := row.Attributes
		if lang := strings.ToLower(a.Language); lang != Language && !strings.HasPrefix(lang, Language+"-") {
			l.Dropped++
			continue
		}
		id := ""
		for _, r := range row.Relationships {
			if r.Type == "manga" {
				id = strings.ToLower(r.ID)
				break
			}
		}
		if !uuidRe.MatchString(id) {
			l.Dropped++
			continue
		}
		e := sites.ListingEntry{SeriesID: id}
		if a.Chapter != nil {
			e.Number, _ = sites.ParseNumber(*a.Chapter)
		}
		if t, err := time.Parse(time.RFC3339, a.ReadableAt); err == nil {
			e.SeenAt = t.UTC()
		}
		l.Add(e)
	}
	next := lb.Offset + len(lb.Data)
	l.More = len(lb.Data) > 0 && next < lb.Total && next+ListingPageSize <= listingReach
	return l
}

package imports

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"time"

	"mangabookmark/backend/sites"
)

// mangadexAPI is MangaDex's API origin; a Site whose origin is overridden
// (SITE_ORIGINS, the simulator) serves the API at its own origin.
const mangadexAPI = "https://api.mangadex.org"

// listDoc is the part of GET /list/{id} (a CustomListResponse) an import
// reads: the manga among the list's relationships.
type listDoc struct {
	Result string `json:"result"`
	Data   struct {
		Type          string `json:"type"`
		Relationships []struct {
			ID   string `json:"id"`
			Type string `json:"type"`
		} `json:"relationships"`
	} `json:"data"`
}

// Clock is the list reader's time seam, the Lanes' clock: lanes.RealClock
// in serve, a simulated clock in tests, so the reader and the Lane it
// shares a Pacer with read the same time.
type Clock interface {
	Now() time.Time
	Sleep(ctx context.Context, d time.Duration) error
}

// MangaDexListReader reads a public MangaDex list through route (the plain
// route the MangaDex Lane uses), one list at a time, each read taking a
// fetch slot from pace, the MangaDex Lane's own Pacer (sites.Registry's),
// at the Site's Gap: list imports and the Lane's reads together keep to
// MangaDex's one pace. It returns the list's Series as public MangaDex URLs.
func MangaDexListReader(site *sites.Site, pace *sites.Pacer, route sites.Fetcher, clock Clock) func(ctx context.Context, listID string) ([]string, error) {
	var mu sync.Mutex
	return func(ctx context.Context, listID string) ([]string, error) {
		mu.Lock()
		defer mu.Unlock()
		for {
			wait := pace.Take(clock.Now(), site.Gap)
			if wait <= 0 {
				break
			}
			if err := clock.Sleep(ctx, wait); err != nil {
				return nil, err
			}
		}
		base := mangadexAPI
		if site.Overridden {
			base = site.Base()
		}
		req := sites.Request{Site: site, Accept: "application/json", Page: base + "/list/" + url.PathEscape(listID)}
		resp, res, ok := sites.Fetch(ctx, route, req, sites.JSON)
		if !ok {
			if res.Outcome == sites.NotFound {
				return nil, errors.New("MangaDex has no public list with that id (a private list cannot be read)")
			}
			return nil, fmt.Errorf("MangaDex answered %s", res.Outcome)
		}
		return ParseMangaDexList(resp.Body)
	}
}

// ParseMangaDexList returns the public URLs of the manga a list document
// names; anything that is not a custom list is an error.
func ParseMangaDexList(body []byte) ([]string, error) {
	var doc listDoc
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, errors.New("MangaDex's answer is not the list document expected")
	}
	if doc.Result != "ok" || doc.Data.Type != "custom_list" {
		return nil, errors.New("MangaDex's answer is not a custom list")
	}
	var out []string
	for _, r := range doc.Data.Relationships {
		if r.Type == "manga" && uuidRe.MatchString(r.ID) {
			out = append(out, "https://mangadex.org/title/"+r.ID)
		}
		if len(out) > MaxItems {
			return nil, fmt.Errorf("the list names more than %d Series", MaxItems)
		}
	}
	return out, nil
}

package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// worksWorld: Reader 1 bookmarks mangadex/a and comix/b, linked by an
// AniList id a Site page carried; Reader 2 bookmarks mangapill/c only.
type worksWorld struct {
	e          *readerEnv
	tok, other string
	work       int64
}

func newWorksWorld(t *testing.T) *worksWorld {
	t.Helper()
	e := newReaderEnv(t)
	ctx := context.Background()
	w := &worksWorld{e: e, tok: e.token("300000000000000001"), other: e.token("300000000000000002")}
	for _, b := range []struct{ tok, url string }{
		{w.tok, "https://mangadex.org/title/00000000-0000-4000-8000-00000000000a"},
		{w.tok, "https://comix.to/title/bbbbb-b"},
		{w.other, "https://mangapill.com/manga/3/c"},
	} {
		if code, body := e.do(b.tok, "POST", "/api/bookmarks", fmt.Sprintf(`{"url":%q}`, b.url)); code != http.StatusCreated {
			t.Fatalf("bookmark %s: %d %s", b.url, code, body)
		}
	}
	var list struct{ Bookmarks []client.Bookmark }
	_, body := e.do(w.tok, "GET", "/api/bookmarks", "")
	if err := json.Unmarshal(body, &list); err != nil || len(list.Bookmarks) != 2 {
		t.Fatalf("bookmarks %s %v", body, err)
	}
	for i, b := range list.Bookmarks {
		f := store.ReadFacts{Title: "Void Swell", Number: fmt.Sprint(20 + i), IDs: []store.ExternalID{{Kind: "al", Value: "30002", Source: store.IDFromSite}}}
		if _, err := e.st.RecordOK(ctx, b.Site, b.SeriesID, f, e.now); err != nil {
			t.Fatal(err)
		}
	}
	_, body = e.do(w.tok, "GET", "/api/bookmarks", "")
	if err := json.Unmarshal(body, &list); err != nil || list.Bookmarks[0].WorkID == nil || list.Bookmarks[1].WorkID == nil ||
		*list.Bookmarks[0].WorkID != *list.Bookmarks[1].WorkID {
		t.Fatalf("bookmarks after the linking reads: %s %v", body, err)
	}
	w.work = *list.Bookmarks[0].WorkID
	return w
}

func (w *worksWorld) get(tok, path string, out any) int {
	w.e.t.Helper()
	code, body := w.e.do(tok, "GET", path, "")
	if code == http.StatusOK && out != nil {
		if err := json.Unmarshal(body, out); err != nil {
			w.e.t.Fatalf("%s: %v (%s)", path, err, body)
		}
	}
	return code
}

func TestWorksAPI(t *testing.T) {
	t.Parallel()
	w := newWorksWorld(t)
	var list client.WorksResponse
	if code := w.get(w.tok, "/api/works", &list); code != http.StatusOK || len(list.Works) != 1 || len(list.Works[0].Members) != 2 {
		t.Fatalf("GET /api/works: %d %+v", code, list)
	}
	var wk client.Work
	path := fmt.Sprintf("/api/works/%d", w.work)
	if code := w.get(w.tok, path, &wk); code != http.StatusOK || wk.Latest == nil || wk.Latest.Number != "21" ||
		wk.Members[0].LinkedBy != "id:al" {
		t.Fatalf("GET %s: %d %+v", path, code, wk)
	}
	// Another Reader, a malformed id, an unknown one: 404.
	for _, c := range []struct{ tok, path string }{{w.other, path}, {w.tok, "/api/works/x"}, {w.tok, "/api/works/999999"}} {
		if code := w.get(c.tok, c.path, nil); code != http.StatusNotFound {
			t.Fatalf("GET %s as %s: %d, want 404", c.path, c.tok[:4], code)
		}
	}
	// The offset: comix's numbers + 100 are the Work's.
	code, body := w.e.do(w.tok, "PUT", path+"/members/comix/bbbbb-b", `{"offset":"100"}`)
	if code != http.StatusOK || !strings.Contains(string(body), `"number":"120"`) {
		t.Fatalf("PUT offset: %d %s", code, body)
	}
	for _, bad := range []string{`{"offset":"ten"}`, `{"offset":"1e9"}`, `{"offset":"999999"}`, `{}`, `{"offset":1}`} {
		if code, body := w.e.do(w.tok, "PUT", path+"/members/comix/bbbbb-b", bad); code != http.StatusBadRequest || !strings.Contains(string(body), "offset") {
			t.Fatalf("PUT offset %s: %d %s, want 400 naming the offset", bad, code, body)
		}
	}
	if code, _ := w.e.do(w.tok, "PUT", path+"/members/mangapill/3", `{"offset":"1"}`); code != http.StatusNotFound {
		t.Fatalf("offset of a non-member: %d", code)
	}
	// Unlink: 200 with the Work left, and the member does not come back.
	code, body = w.e.do(w.tok, "DELETE", path+"/members/comix/bbbbb-b", "")
	if code != http.StatusOK || strings.Contains(string(body), `"comix"`) {
		t.Fatalf("DELETE member: %d %s", code, body)
	}
	if code, _ := w.e.do(w.tok, "DELETE", path+"/members/comix/bbbbb-b", ""); code != http.StatusNotFound {
		t.Fatalf("unlinking again: %d, want 404", code)
	}
}

func TestSeriesAPIAndReaderIDs(t *testing.T) {
	t.Parallel()
	w := newWorksWorld(t)
	var card client.SeriesCard
	if code := w.get(w.tok, "/api/series/comix/bbbbb-b", &card); code != http.StatusOK || card.WorkID == nil ||
		len(card.IDs) != 1 || card.IDs[0].Source != "site" {
		t.Fatalf("GET series: %d %+v", code, card)
	}
	if code := w.get(w.other, "/api/series/comix/bbbbb-b", nil); code != http.StatusNotFound {
		t.Fatalf("a Series the Reader does not bookmark: %d, want 404", code)
	}
	if code := w.get(w.tok, "/api/series/nosuchsite/x", nil); code != http.StatusNotFound {
		t.Fatalf("an unknown Site: %d, want 404", code)
	}
	// Reader 2 names the same AniList id on their Series: it joins the Work
	// in Reader 2's library (their word, shown as theirs), not Reader 1's.
	code, body := w.e.do(w.other, "PUT", "/api/series/mangapill/3/ids", `{"kind":"al","value":"30002"}`)
	if code != http.StatusOK || !strings.Contains(string(body), fmt.Sprintf(`"work_id":%d`, w.work)) ||
		!strings.Contains(string(body), `"source":"mine"`) {
		t.Fatalf("PUT ids: %d %s", code, body)
	}
	var mine client.Work
	if code := w.get(w.tok, fmt.Sprintf("/api/works/%d", w.work), &mine); code != http.StatusOK || len(mine.Members) != 2 {
		t.Fatalf("Reader 1's Work after Reader 2 named an id: %d %+v, want its 2 members", code, mine)
	}
	for _, bad := range []string{`{"kind":"xx","value":"1"}`, `{"kind":"al","value":"1 2"}`, `{"kind":"al"}`,
		`{"kind":"al","value":"` + strings.Repeat("9", 101) + `"}`, `{"kind":"al","value":"1","extra":1}`} {
		if code, body := w.e.do(w.other, "PUT", "/api/series/mangapill/3/ids", bad); code != http.StatusBadRequest {
			t.Fatalf("PUT ids %s: %d %s, want 400", bad, code, body)
		}
	}
	if code, _ := w.e.do(w.other, "PUT", "/api/series/comix/bbbbb-b/ids", `{"kind":"al","value":"1"}`); code != http.StatusNotFound {
		t.Fatalf("PUT ids on a Series not bookmarked: %d, want 404", code)
	}
	if n := w.e.count("series_ids"); n != 3 {
		t.Fatalf("%d ids stored, want 3 (the refused ones lose nothing and add nothing)", n)
	}
}

func TestWorkLinkByHandAPI(t *testing.T) {
	t.Parallel()
	w := newWorksWorld(t)
	// Reader 2 also bookmarks mangadex/a, then links it with their mangapill/3 by hand.
	if code, body := w.e.do(w.other, "POST", "/api/bookmarks", `{"url":"https://mangadex.org/title/00000000-0000-4000-8000-00000000000a"}`); code != http.StatusCreated {
		t.Fatalf("bookmark: %d %s", code, body)
	}
	link := `{"a":{"site":"mangapill","series_id":"3"},"b":{"site":"mangadex","series_id":"00000000-0000-4000-8000-00000000000a"}}`
	code, body := w.e.do(w.other, "POST", "/api/works/link", link)
	var wk client.Work
	if code != http.StatusOK || json.Unmarshal(body, &wk) != nil || wk.ID != w.work || len(wk.Members) != 3 {
		t.Fatalf("POST /api/works/link: %d %s, want Work %d with 3 members", code, body, w.work)
	}
	// It holds for Reader 2 only: Reader 1 still sees two members.
	var mine client.Work
	if code := w.get(w.tok, fmt.Sprintf("/api/works/%d", w.work), &mine); code != http.StatusOK || len(mine.Members) != 2 {
		t.Fatalf("Reader 1's Work after Reader 2's hand link: %d %+v", code, mine)
	}
	for _, bad := range []string{`{}`, `{"a":{"site":"mangapill","series_id":"3"}}`,
		`{"a":{"site":"nosite","series_id":"3"},"b":{"site":"mangapill","series_id":"3"}}`,
		`{"a":{"site":"mangapill","series_id":"3"},"b":{"site":"mangapill","series_id":"3"}}`} {
		if code, body := w.e.do(w.other, "POST", "/api/works/link", bad); code != http.StatusBadRequest {
			t.Fatalf("POST link %s: %d %s, want 400", bad, code, body)
		}
	}
	stranger := w.e.token("300000000000000009")
	if code, _ := w.e.do(stranger, "POST", "/api/works/link", link); code != http.StatusNotFound {
		t.Fatalf("a Reader who bookmarks neither: %d, want 404", code)
	}
}

// TestUnlinkPendingMemberAPI: a Reader unlinks a member they hold by their
// own unconfirmed hand link: 200 with the Work as left, the link gone for
// them alone; another Reader cannot remove it.
func TestUnlinkPendingMemberAPI(t *testing.T) {
	t.Parallel()
	w := newWorksWorld(t)
	if code, body := w.e.do(w.other, "POST", "/api/bookmarks", `{"url":"https://mangadex.org/title/00000000-0000-4000-8000-00000000000a"}`); code != http.StatusCreated {
		t.Fatalf("bookmark: %d %s", code, body)
	}
	link := `{"a":{"site":"mangapill","series_id":"3"},"b":{"site":"mangadex","series_id":"00000000-0000-4000-8000-00000000000a"}}`
	if code, body := w.e.do(w.other, "POST", "/api/works/link", link); code != http.StatusOK {
		t.Fatalf("POST /api/works/link: %d %s", code, body)
	}
	path := fmt.Sprintf("/api/works/%d/members/mangapill/3", w.work)
	// Reader 1 holds the Work but not Reader 2's hand link.
	if code, body := w.e.do(w.tok, "DELETE", path, ""); code != http.StatusNotFound {
		t.Fatalf("Reader 1 DELETE of Reader 2's pending member: %d %s, want 404", code, body)
	}
	code, body := w.e.do(w.other, "DELETE", path, "")
	var left client.Work
	if code != http.StatusOK || json.Unmarshal(body, &left) != nil || left.ID != w.work || len(left.Members) != 2 {
		t.Fatalf("DELETE of the Reader's pending member: %d %s, want 200 with the Work's 2 shared members", code, body)
	}
	for _, m := range left.Members {
		if m.Site == "mangapill" || m.Pending {
			t.Fatalf("member %+v left after the unlink", m)
		}
	}
	var mine client.Work
	if code := w.get(w.tok, fmt.Sprintf("/api/works/%d", w.work), &mine); code != http.StatusOK || len(mine.Members) != 2 {
		t.Fatalf("Reader 1's Work after Reader 2's unlink: %d %+v", code, mine)
	}
	if code, _ := w.e.do(w.other, "DELETE", path, ""); code != http.StatusNotFound {
		t.Fatalf("DELETE again: %d, want 404", code)
	}
}

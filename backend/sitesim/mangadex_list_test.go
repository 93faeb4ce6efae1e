package sitesim_test

import (
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"mangabookmark/backend/sitesim"
	"mangabookmark/backend/sitesim/simtest"
)

func TestMangaDexListServesItsSeries(t *testing.T) {
	t.Parallel()
	sim := simtest.Start(t, sitesim.Config{SeriesPerSite: 10})
	get := func(id string) (int, map[string]any) {
		t.Helper()
		resp, err := http.Get(sim.Origin("mangadex") + "/list/" + id)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		return resp.StatusCode, doc
	}
	code, doc := get(sim.MangaDexListID(3))
	data, _ := doc["data"].(map[string]any)
	rel, _ := data["relationships"].([]any)
	if code != 200 || doc["result"] != "ok" || data["type"] != "custom_list" || len(rel) != 4 {
		t.Fatalf("%d %v", code, doc)
	}
	if first := rel[0].(map[string]any); first["type"] != "manga" || first["id"] != sim.SeriesID("mangadex", 0) {
		t.Errorf("first relationship %v", first)
	}
	for _, id := range []string{sim.MangaDexListID(11), "0d8f5e0e-5b8a-4c3b-9f4d-2f5a6b7c8d9e", "x"} {
		if code, doc := get(id); code != 404 || doc["result"] != "error" {
			t.Errorf("%s: %d %v", id, code, doc)
		}
	}
}

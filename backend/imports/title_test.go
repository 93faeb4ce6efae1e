package imports_test

import (
	"strings"
	"testing"

	"mangabookmark/backend/imports"
	"mangabookmark/backend/sites"
	"mangabookmark/backend/sites/sitestest"
)

// A file's title reaches the plan's entry cleaned as a line: our JSON
// export's "title", a CSV's "title" column (the export's "'" before "="
// taken off), and for two items of one Series the first title given.
func TestPlanCarriesTheFilesTitle(t *testing.T) {
	t.Parallel()
	site, _ := sitestest.Site("mangapill", false)
	reg, err := sites.NewRegistry([]*sites.Site{site})
	if err != nil {
		t.Fatal(err)
	}
	js := `{"version":1,"bookmarks":[
		{"url":"https://mangapill.test/series/1","title":" Kaiju\u202e\u0007 Story "},
		{"url":"https://mangapill.test/series/2"},
		{"url":"https://mangapill.test/series/2","title":"Second Word"}]}`
	p, err := imports.DecodeJSON(strings.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	pl := imports.MakePlan(p, reg)
	if len(pl.Entries) != 2 || pl.Entries[0].Title != "Kaiju Story" || pl.Entries[1].Title != "Second Word" {
		t.Fatalf("JSON plan titles: %+v", pl.Entries)
	}
	csv := "url,title\nhttps://mangapill.test/series/3,'=Sum\nhttps://mangapill.test/series/4,'plain\nhttps://mangapill.test/series/5,\n"
	if p, err = imports.DecodeCSV(strings.NewReader(csv)); err != nil {
		t.Fatal(err)
	}
	pl = imports.MakePlan(p, reg)
	var got []string
	for _, e := range pl.Entries {
		got = append(got, e.Title)
	}
	if strings.Join(got, "|") != "=Sum|'plain|" {
		t.Errorf("CSV plan titles: %q", got)
	}
}

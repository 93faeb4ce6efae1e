package registry_test

import (
	"strings"
	"testing"

	"mangabookmark/backend/sites/registry"
)

// Backup source names and ids map to one Site each: an alias two Sites
// claimed would import a backup's Series onto the wrong Site.
func TestSourceNamesAreUnique(t *testing.T) {
	t.Parallel()
	names, ids := map[string]string{}, map[int64]string{}
	for _, s := range registry.Sites() {
		for _, n := range append([]string{s.Name}, s.SourceNames...) {
			k := strings.ToLower(n)
			if other, dup := names[k]; dup && other != s.Name {
				t.Errorf("source name %q claimed by %s and %s", n, other, s.Name)
			}
			names[k] = s.Name
		}
		for _, id := range s.SourceIDs {
			if other, dup := ids[id]; dup {
				t.Errorf("source id %d claimed by %s and %s", id, other, s.Name)
			}
			ids[id] = s.Name
		}
	}
	if ids[2499283573021220255] != "mangadex" || names["weeb central"] != "weebcentral" || names["manganato"] != "natomanga" {
		t.Errorf("known sources missing: ids %v, names %v", ids, names)
	}
}

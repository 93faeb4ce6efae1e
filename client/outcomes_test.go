package client_test

import (
	"slices"
	"testing"

	"mangabookmark/backend/sites"
	"mangabookmark/client"
)

// TestOutcomesAreTheFailureOutcomes holds client.Outcomes to the one list
// in backend/sites: exactly the outcomes that write a failure row, in the
// order sites.Outcomes gives them.
func TestOutcomesAreTheFailureOutcomes(t *testing.T) {
	t.Parallel()
	var want []string
	for _, o := range sites.Outcomes {
		if o.WritesFailure() {
			want = append(want, string(o))
		}
	}
	if len(want) == 0 || !slices.Equal(client.Outcomes, want) {
		t.Fatalf("client.Outcomes = %v, want the failure outcomes of backend/sites %v", client.Outcomes, want)
	}
}

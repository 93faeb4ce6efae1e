package api_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"mangabookmark/backend/api"
	"mangabookmark/backend/store"
	"mangabookmark/backend/store/dbtest"
)

// A refusal that names no Reader limit is told in a fixed sentence, never
// the error's text with its package prefix and chain; the named limits
// keep their words.
func TestLimitReasonNeverShowsTheError(t *testing.T) {
	t.Parallel()
	srv := newServer(t, api.Config{Store: dbtest.New(t)})
	err := fmt.Errorf("store: apply reads: %w", errors.New("ERROR: deadlock detected (SQLSTATE 40P01)"))
	got := srv.LimitReason(err)
	if got == "" || strings.Contains(got, "store:") || strings.Contains(got, "deadlock") || strings.Contains(got, ": ") {
		t.Errorf("an unnamed refusal reads %q, want one plain sentence", got)
	}
	if got := srv.LimitReason(fmt.Errorf("store: apply: %w", store.ErrBookmarkLimit)); !strings.HasPrefix(got, "bookmark_limit: ") || strings.Contains(got, "store:") {
		t.Errorf("the bookmark cap reads %q", got)
	}
}

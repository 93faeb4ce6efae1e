package releasefeed_test

import (
	"testing"

	"mangabookmark/backend/releasefeed"
)

// NewClient takes an origin by the rule TRACKER_ORIGINS follows
// (trackers.CleanOrigin): a scheme and host only, nothing that could
// carry credentials or bend the path.
func TestNewClientOrigin(t *testing.T) {
	for _, o := range []string{"", "http://127.0.0.1:9102", "https://Feed.Example/"} {
		if _, err := releasefeed.NewClient(o, nil); err != nil {
			t.Errorf("%q refused: %v", o, err)
		}
	}
	for _, o := range []string{"ftp://feed.example", "http://user:pw@feed.example", "http://feed.example/v2",
		"http://feed.example?x=1", "http://feed.example#f", "feed.example", "http://:80"} {
		if _, err := releasefeed.NewClient(o, nil); err == nil {
			t.Errorf("%q accepted", o)
		}
	}
}

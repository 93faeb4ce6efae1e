package trackers

import (
	"reflect"
	"testing"
)

// TestOnePerMedia: a media named twice counts once, at its highest count,
// in the place it was first named; nothing else moves.
func TestOnePerMedia(t *testing.T) {
	t.Parallel()
	in := []Entry{{MediaID: "1", Progress: 3}, {MediaID: "2", Progress: 9}, {MediaID: "1", Progress: 7, Status: StatusCompleted},
		{MediaID: "3", Progress: 1}, {MediaID: "2", Progress: 4}}
	want := []Entry{{MediaID: "1", Progress: 7, Status: StatusCompleted}, {MediaID: "2", Progress: 9}, {MediaID: "3", Progress: 1}}
	if got := OnePerMedia(in); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	if got := OnePerMedia(nil); len(got) != 0 {
		t.Fatalf("nil: %+v", got)
	}
}

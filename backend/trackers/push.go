package trackers

import (
	"math"
)

// Whole is the chapter count a Progress number pushes: its whole part
// (59.5 → 59), since a tracker counts whole chapters and a half chapter
// read is not the next chapter read. ok is false for a number no tracker
// should hear: NaN, infinite, negative, or over MaxProgress.
func Whole(progress float64) (n int, ok bool) {
	if math.IsNaN(progress) || progress < 0 || progress > MaxProgress {
		return 0, false
	}
	return int(math.Floor(progress)), true
}

// Decide is the push rule: given the token's remote entry and the
// Reader's Progress number, it returns the write to send, or false when
// nothing should be sent. A push never lowers the remote: it writes only
// when the whole chapter number is above the remote count (an equal or
// higher remote, read elsewhere, is left as it is). A media not on the
// list, or PLANNING, becomes CURRENT (the Reader has started it); every
// other status (COMPLETED, PAUSED, DROPPED, REPEATING, CURRENT) is the
// Reader's own choice on the tracker and is kept.
func Decide(remote Remote, progress float64) (Write, bool) {
	n, ok := Whole(progress)
	if !ok || n == 0 {
		return Write{}, false
	}
	if remote.OnList && n <= remote.Progress {
		return Write{}, false
	}
	status := remote.Status
	if !remote.OnList || status == StatusNone || status == StatusPlanning {
		status = StatusCurrent
	}
	return Write{Progress: n, Status: status}, true
}

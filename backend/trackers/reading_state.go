package trackers

// Reading states and a list entry's status map one to one
// (docs/sources.md ("Status and time") §7; docs/CONTEXT.md "Reading
// state"): reading CURRENT, plan PLANNING, on_hold PAUSED, dropped
// DROPPED, completed COMPLETED, rereading REPEATING.
var stateOfStatus = map[Status]string{
	StatusCurrent: "reading", StatusPlanning: "plan", StatusPaused: "on_hold",
	StatusDropped: "dropped", StatusCompleted: "completed", StatusRepeating: "rereading",
}

// StateOf is the reading state a list entry's status means ("" for none
// or an unknown status).
func StateOf(s Status) string { return stateOfStatus[s] }

// StatusOf is the list status a reading state means (StatusNone for ""
// or an unknown state).
func StatusOf(state string) Status {
	for st, s := range stateOfStatus {
		if s == state {
			return st
		}
	}
	return StatusNone
}

// DecideAs is Decide for a Reader who set their reading state by hand
// (want, a list status; StatusNone: Decide's rule). The write carries
// want, and the count never falls: the higher of the Reader's whole
// Progress and the remote count. Nothing is written when the remote
// already holds both.
func DecideAs(remote Remote, progress float64, want Status) (Write, bool) {
	if want == StatusNone {
		return Decide(remote, progress)
	}
	n, ok := Whole(progress)
	if !ok {
		return Write{}, false
	}
	if remote.OnList && remote.Progress > n {
		n = remote.Progress
	}
	if remote.OnList && n == remote.Progress && remote.Status == want {
		return Write{}, false
	}
	return Write{Progress: n, Status: want}, true
}

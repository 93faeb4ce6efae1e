package trackers

// Bookmark is what the pull needs of one of the Reader's bookmarks: the
// Series, the tracker media id linked to it (its `al` id for AniList) and
// its Progress (0 when never read).
type Bookmark struct {
	Site     string
	SeriesID string
	MediaID  string
	Progress float64
}

// Move is one Progress the pull moves forward: the bookmark's Series, the
// media it matched and the numbers from and to.
type Move struct {
	Site     string
	SeriesID string
	MediaID  string
	From     float64
	To       int
}

// PullPlan is what one pull does: the Progress moves, and the entries no
// bookmark matches ("not on a Site we read yet"), in the list's order.
type PullPlan struct {
	Moves     []Move
	Unmatched []Entry
	// States are the reading states the entries' statuses mean, one per
	// matched bookmark (StateOf); the store applies each only to a
	// bookmark whose state the Reader never set by hand.
	States []StateSet
}

// StateSet is one bookmark's reading state from its entry's status.
type StateSet struct {
	Site, SeriesID string
	State          string
}

// PlanPull is the pull rule. An entry moves the Progress of every
// bookmark linked to its media up to the entry's count, and only up: a
// count at or below the Progress moves nothing (the Reader read further
// here, or lowered it by hand here). It creates no bookmark: an entry no
// bookmark matches is listed in Unmatched. A count above the Series' known
// Latest Chapter is kept (the Reader read it elsewhere); owing no notice
// for the chapters at or below it is the store's part. A media listed
// twice (custom lists) counts once, at its highest count.
func PlanPull(entries []Entry, marks []Bookmark) PullPlan {
	byMedia := map[string][]Bookmark{}
	for _, b := range marks {
		if b.MediaID != "" {
			byMedia[b.MediaID] = append(byMedia[b.MediaID], b)
		}
	}
	best := map[string]int{}
	var order []Entry
	for _, e := range entries {
		i, seen := best[e.MediaID]
		if !seen {
			best[e.MediaID] = len(order)
			order = append(order, e)
			continue
		}
		if e.Progress > order[i].Progress {
			order[i] = e
		}
	}
	var plan PullPlan
	for _, e := range order {
		bs := byMedia[e.MediaID]
		if len(bs) == 0 {
			plan.Unmatched = append(plan.Unmatched, e)
			continue
		}
		for _, b := range bs {
			if st := StateOf(e.Status); st != "" {
				plan.States = append(plan.States, StateSet{Site: b.Site, SeriesID: b.SeriesID, State: st})
			}
			if e.Progress <= MaxProgress && float64(e.Progress) > b.Progress {
				plan.Moves = append(plan.Moves, Move{Site: b.Site, SeriesID: b.SeriesID, MediaID: e.MediaID, From: b.Progress, To: e.Progress})
			}
		}
	}
	return plan
}

package admin

import (
	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// PassView is a stored pass as the admin API and the pages show it.
func PassView(p store.Pass) client.Pass {
	return client.Pass{
		StartedAt: p.StartedAt.UTC(), FinishedAt: p.FinishedAt.UTC(),
		Due: p.Due, Checked: p.Checked, OK: p.OK, New: p.New, NotFound: p.NotFound,
		NoChapter: p.NoChapter, Unfetchable: p.Unfetchable, Errors: p.Errors,
		Refused: p.Refused, Unreachable: p.Unreachable, Skip: p.Skip,
		BehindByS: seconds(p.BehindBy), Listing: p.Listing, Hinted: p.Hinted,
	}
}

// FailingView is a failing row as the admin API answers it.
func FailingView(a store.AdminFailing) client.Failing {
	return client.Failing{
		Site: a.Site, SeriesID: a.SeriesID, Title: a.Title, URL: a.URL, Outcome: a.Outcome,
		FailingSince: a.FailingSince.UTC(), LatestCheckedAt: utc(a.LatestCheckedAt),
	}
}

// NoticeView is an open Owner notice as the admin API answers it.
func NoticeView(n store.Notice) client.Notice {
	return client.Notice{Kind: n.Kind, Site: n.Site, Since: n.OpenedAt.UTC(), NotifiedAt: utc(n.NotifiedAt)}
}

package client

import (
	"context"
	"strconv"
)

// Works returns the Works holding any of the Reader's bookmarks.
func (c *Client) Works(ctx context.Context) ([]Work, error) {
	var out WorksResponse
	err := c.do(ctx, "GET", "/api/works", nil, nil, &out)
	return out.Works, err
}

// Work returns one Work holding one of the Reader's bookmarks.
func (c *Client) Work(ctx context.Context, id int64) (Work, error) {
	var out Work
	err := c.do(ctx, "GET", "/api/works/"+strconv.FormatInt(id, 10), nil, nil, &out)
	return out, err
}

// Series returns a bookmarked Series with its ids, Work and suggestions.
func (c *Client) Series(ctx context.Context, site, seriesID string) (SeriesCard, error) {
	var out SeriesCard
	err := c.do(ctx, "GET", "/api/series"+pathEscape(site, seriesID), nil, nil, &out)
	return out, err
}

// SetSeriesID names an external id of a bookmarked Series.
func (c *Client) SetSeriesID(ctx context.Context, site, seriesID, kind, value string) (SeriesCard, error) {
	var out SeriesCard
	err := c.do(ctx, "PUT", "/api/series"+pathEscape(site, seriesID)+"/ids", nil, ExternalID{Kind: kind, Value: value}, &out)
	return out, err
}

// UnlinkMember says a member is not the Work's story, in the calling
// Reader's library: other Readers keep it until a second Reader unlinks
// it too (then ids never link it to that Work again).
func (c *Client) UnlinkMember(ctx context.Context, workID int64, site, seriesID string) (Work, error) {
	var out Work
	err := c.do(ctx, "DELETE", "/api/works/"+strconv.FormatInt(workID, 10)+"/members"+pathEscape(site, seriesID), nil, nil, &out)
	return out, err
}

// SetMemberOffset sets the calling Reader's own offset on a member (a
// decimal string, "-100"): only their numbers of the Work move.
func (c *Client) SetMemberOffset(ctx context.Context, workID int64, site, seriesID, offset string) (Work, error) {
	var out Work
	err := c.do(ctx, "PUT", "/api/works/"+strconv.FormatInt(workID, 10)+"/members"+pathEscape(site, seriesID), nil,
		map[string]string{"offset": offset}, &out)
	return out, err
}

// SharedOffset is the answer of the Owner's SetSharedMemberOffset.
type SharedOffset struct {
	WorkID   int64  `json:"work_id"`
	Site     string `json:"site"`
	SeriesID string `json:"series_id"`
	Offset   string `json:"offset"`
}

// SetSharedMemberOffset sets a member's shared offset for every Reader and
// clears the Readers' own on it (Owner token).
func (c *Client) SetSharedMemberOffset(ctx context.Context, workID int64, site, seriesID, offset string) (SharedOffset, error) {
	var out SharedOffset
	err := c.do(ctx, "PUT", "/api/admin/works/"+strconv.FormatInt(workID, 10)+"/members"+pathEscape(site, seriesID), nil,
		map[string]string{"offset": offset}, &out)
	return out, err
}

// SharedUnlink is the answer of the Owner's UnlinkSharedMember.
type SharedUnlink struct {
	WorkID   int64  `json:"work_id"`
	Site     string `json:"site"`
	SeriesID string `json:"series_id"`
}

// UnlinkSharedMember takes a member out of a Work for every Reader, for
// good: ids never link it to that Work again (Owner token).
func (c *Client) UnlinkSharedMember(ctx context.Context, workID int64, site, seriesID string) (SharedUnlink, error) {
	var out SharedUnlink
	err := c.do(ctx, "DELETE", "/api/admin/works/"+strconv.FormatInt(workID, 10)+"/members"+pathEscape(site, seriesID), nil, nil, &out)
	return out, err
}

// LinkWork says two Series are one story (a suggestion, or by hand): the
// link holds for this Reader until another Reader makes it too.
func (c *Client) LinkWork(ctx context.Context, a, b SeriesRef) (Work, error) {
	var out Work
	err := c.do(ctx, "POST", "/api/works/link", nil, WorkLink{A: a, B: b}, &out)
	return out, err
}

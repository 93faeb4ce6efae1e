package client

import (
	"context"
	"net/url"
	"strconv"
	"time"
)

// Lanes returns every Lane in registry order.
func (c *Client) Lanes(ctx context.Context) ([]Lane, error) {
	var out LanesResponse
	err := c.do(ctx, "GET", "/api/admin/lanes", nil, nil, &out)
	return out.Lanes, err
}

// Passes returns a Site's recent passes, newest first; limit 0 asks for
// the server's default (50).
func (c *Client) Passes(ctx context.Context, site string, limit int) ([]Pass, error) {
	q := url.Values{}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	var out PassesResponse
	err := c.do(ctx, "GET", "/api/admin/lanes"+pathEscape(site, "passes"), q, nil, &out)
	return out.Passes, err
}

// Failing returns the failing worklist, oldest failure first.
func (c *Client) Failing(ctx context.Context, f FailingFilter) (FailingResponse, error) {
	q := url.Values{}
	if f.Site != "" {
		q.Set("site", f.Site)
	}
	if f.Outcome != "" {
		q.Set("outcome", f.Outcome)
	}
	if f.Limit > 0 {
		q.Set("limit", strconv.Itoa(f.Limit))
	}
	var out FailingResponse
	err := c.do(ctx, "GET", "/api/admin/failing", q, nil, &out)
	return out, err
}

// Force asks for a Forced Poll of one Series and returns its stamp.
func (c *Client) Force(ctx context.Context, site, seriesID string) (time.Time, error) {
	var out ForceResponse
	err := c.do(ctx, "POST", "/api/admin/series"+pathEscape(site, seriesID, "force"), nil, nil, &out)
	return out.ForcePollAt, err
}

// Pause pauses a Lane for d with a reason and returns the Lane after.
func (c *Client) Pause(ctx context.Context, site string, d time.Duration, reason string) (Lane, error) {
	s := int64(d / time.Second)
	return c.PauseWith(ctx, site, PauseRequest{ForS: &s, Reason: reason})
}

// PauseWith sends a pause request as given (for_s or until).
func (c *Client) PauseWith(ctx context.Context, site string, req PauseRequest) (Lane, error) {
	var out Lane
	err := c.do(ctx, "POST", "/api/admin/lanes"+pathEscape(site, "pause"), nil, req, &out)
	return out, err
}

// Resume lifts a Lane's pause and returns the Lane after.
func (c *Client) Resume(ctx context.Context, site string) (Lane, error) {
	var out Lane
	err := c.do(ctx, "DELETE", "/api/admin/lanes"+pathEscape(site, "pause"), nil, nil, &out)
	return out, err
}

// Notices returns the open owner notices.
func (c *Client) Notices(ctx context.Context) ([]Notice, error) {
	var out NoticesResponse
	err := c.do(ctx, "GET", "/api/admin/notices", nil, nil, &out)
	return out.Notices, err
}

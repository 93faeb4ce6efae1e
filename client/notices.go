package client

import "context"

// NoticesReport returns the whole GET /api/admin/notices answer: the open
// owner notices and, when the server runs Reader notices, their delivery
// health.
func (c *Client) NoticesReport(ctx context.Context) (NoticesResponse, error) {
	var out NoticesResponse
	err := c.do(ctx, "GET", "/api/admin/notices", nil, nil, &out)
	return out, err
}

package client

import "context"

// AdminWorks returns how many Works and links exist (GET /api/admin/works).
func (c *Client) AdminWorks(ctx context.Context) (AdminWorks, error) {
	var out AdminWorks
	err := c.do(ctx, "GET", "/api/admin/works", nil, nil, &out)
	return out, err
}

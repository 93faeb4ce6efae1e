package client

import (
	"context"
	"strconv"
)

// ImportURLs imports a list of Series or chapter URLs (POST /api/imports).
// The answer is the import as it stands; entries the hourly allowance
// holds are counted in Waiting and resume on their own.
func (c *Client) ImportURLs(ctx context.Context, urls []string) (Import, error) {
	var out Import
	err := c.do(ctx, "POST", "/api/imports", nil, map[string][]string{"urls": urls}, &out)
	return out, err
}

// ImportMangaDexList imports a public MangaDex list by its URL.
func (c *Client) ImportMangaDexList(ctx context.Context, listURL string) (Import, error) {
	var out Import
	err := c.do(ctx, "POST", "/api/imports", nil, map[string]string{"mangadex_list": listURL}, &out)
	return out, err
}

// GetImport returns one of the Reader's imports.
func (c *Client) GetImport(ctx context.Context, id int64) (Import, error) {
	var out Import
	err := c.do(ctx, "GET", "/api/imports/"+strconv.FormatInt(id, 10), nil, nil, &out)
	return out, err
}

// Imports returns the Reader's latest imports, newest first.
func (c *Client) Imports(ctx context.Context) ([]Import, error) {
	var out struct {
		Imports []Import `json:"imports"`
	}
	err := c.do(ctx, "GET", "/api/imports", nil, nil, &out)
	return out.Imports, err
}

package browser

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/go-rod/rod/lib/cdp"

	"mangabookmark/backend/sites"
)

// evalResult is the part of Runtime.evaluate's answer Fetch uses.
type evalResult struct {
	Result struct {
		Value json.RawMessage `json:"value"`
	} `json:"result"`
	ExceptionDetails *struct {
		Text      string `json:"text"`
		Exception *struct {
			Description string `json:"description"`
		} `json:"exception"`
	} `json:"exceptionDetails"`
}

// evalParams is Runtime.evaluate's request with the fields Fetch sets.
type evalParams struct {
	Expression    string `json:"expression"`
	ReturnByValue bool   `json:"returnByValue"`
	AwaitPromise  bool   `json:"awaitPromise,omitempty"`
	ContextID     int    `json:"contextId,omitempty"`
}

// readWorld names the isolated world the reads run in: it shares the
// page's DOM but none of its scripts' globals or prototypes, so a page
// that redefines outerHTML, fetch or Uint8Array changes nothing a read
// returns.
const readWorld = "mangabookmark_read"

// evalIsolated is eval in the isolated world of the tab's current
// document. Chrome makes the world on the document's first ask and finds
// it again by its name on later ones, so its globals (markJS's tag) last
// as long as the document and end with it. A document swapped between
// the world's lookup and the evaluation is tried again in the new one,
// whose URL the read then judges.
func (b *Browser) evalIsolated(ctx context.Context, c *conn, t *tab, expr string, await bool, out any) error {
	for try := 0; try < 3; try++ {
		var w struct {
			ExecutionContextID int `json:"executionContextId"`
		}
		err := c.tabCall(ctx, t, "Page.createIsolatedWorld", map[string]any{"frameId": string(t.target), "worldName": readWorld}, &w)
		if err != nil {
			return fmt.Errorf("isolated world: %w", err)
		}
		if w.ExecutionContextID == 0 {
			return &pageError{msg: "isolated world: no context"}
		}
		err = b.evalIn(ctx, c, t, evalParams{Expression: expr, ReturnByValue: true, AwaitPromise: await, ContextID: w.ExecutionContextID}, out)
		var pe *cdp.Error
		if !errors.As(err, &pe) || !strings.Contains(pe.Message, "Cannot find context") {
			return err
		}
	}
	return &pageError{msg: "isolated world: the page navigated on while it was read"}
}

// eval runs expr in the tab's page and decodes its value into out (when
// not nil). A script exception comes back as a *pageError.
func (b *Browser) eval(ctx context.Context, c *conn, t *tab, expr string, await bool, out any) error {
	return b.evalIn(ctx, c, t, evalParams{Expression: expr, ReturnByValue: true, AwaitPromise: await}, out)
}

// evalIn runs one Runtime.evaluate and decodes its value into out.
func (b *Browser) evalIn(ctx context.Context, c *conn, t *tab, p evalParams, out any) error {
	var res evalResult
	err := c.tabCall(ctx, t, "Runtime.evaluate", p, &res)
	if err != nil {
		return err
	}
	if d := res.ExceptionDetails; d != nil {
		msg := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			msg = d.Exception.Description
		}
		return &pageError{msg: "script: " + msg}
	}
	if out == nil || len(res.Result.Value) == 0 {
		return nil
	}
	return json.Unmarshal(res.Result.Value, out)
}

// fetched is fetchJS's answer.
type fetched struct {
	Page    string            `json:"page"`
	Error   string            `json:"error"`
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers"`
	URL     string            `json:"url"`
	Body    string            `json:"body"`
	Over    bool              `json:"over"`
}

// readData fetches req.Data from inside the page that open left in the tab.
func (b *Browser) readData(ctx context.Context, c *conn, t *tab, req sites.Request) (*sites.Response, error) {
	timeout := b.opts.readTimeout
	rctx, cancel := context.WithTimeout(ctx, timeout+2*time.Second) // the page's own abort fires first
	defer cancel()
	dataURL, _ := json.Marshal(req.Data)
	accept, _ := json.Marshal(req.Accept)
	method, _ := json.Marshal(req.Method)
	body, _ := json.Marshal(string(req.Body))
	ctype, _ := json.Marshal(req.ContentType)
	expr := fmt.Sprintf("(%s)(%s, %s, %d, %d, %s, %s, %s)", fetchJS, dataURL, accept, b.opts.maxBody, timeout.Milliseconds(), method, body, ctype)
	var f fetched
	if err := b.evalIsolated(rctx, c, t, expr, true, &f); err != nil {
		return nil, fmt.Errorf("fetch %s in page: %w", req.Data, err)
	}
	if err := stayed(req, f.Page); err != nil {
		return nil, err
	}
	if f.Error != "" {
		return nil, &pageError{msg: fmt.Sprintf("fetch %s in page: script: %s", req.Data, f.Error)}
	}
	if f.Over {
		return nil, fmt.Errorf("fetch %s in page: body over %d bytes: %w", req.Data, b.opts.maxBody, sites.ErrTooLarge)
	}
	got, err := base64.StdEncoding.DecodeString(f.Body)
	if err != nil {
		return nil, &pageError{msg: fmt.Sprintf("fetch %s in page: body: %v", req.Data, err)}
	}
	h := http.Header{}
	for k, v := range f.Headers {
		h.Set(k, v)
	}
	res := &sites.Response{Status: f.Status, Header: h, Body: got}
	if u, err := url.Parse(f.URL); err == nil && f.URL != "" {
		res.FinalURL = u
	}
	return res, nil
}

// pageHTML is htmlJS's answer.
type pageHTML struct {
	URL         string `json:"url"`
	Status      int    `json:"status"`
	ContentType string `json:"contentType"`
	HTML        string `json:"html"`
	Over        int    `json:"over"` // the HTML's length when over the limit (then no HTML)
}

// readPage returns the settled page's HTML with its URL and status, all
// read in one evaluation of the same document. The navigation's headers
// are added when that document is the one the wait settled on.
func (b *Browser) readPage(ctx context.Context, c *conn, t *tab, req sites.Request, doc *document) (*sites.Response, error) {
	rctx, cancel := context.WithTimeout(ctx, b.opts.readTimeout)
	defer cancel()
	var p pageHTML
	if err := b.evalIsolated(rctx, c, t, fmt.Sprintf("(%s)(%d)", htmlJS, b.opts.maxBody), false, &p); err != nil {
		return nil, fmt.Errorf("page html: %w", err)
	}
	if err := stayed(req, p.URL); err != nil {
		if p.URL == doc.url && doc.redirected {
			// The Site's own HTTP redirect, as the plain route judges it.
			return nil, fmt.Errorf("page html: redirected to %.200q: %w", p.URL, sites.ErrOffSite)
		}
		return nil, err
	}
	if p.Over > 0 {
		return nil, fmt.Errorf("page html: %d characters, over %d: %w", p.Over, b.opts.maxBody, sites.ErrTooLarge)
	}
	if len(p.HTML) > b.opts.maxBody {
		return nil, fmt.Errorf("page html: %d bytes, over %d: %w", len(p.HTML), b.opts.maxBody, sites.ErrTooLarge)
	}
	res := &sites.Response{Status: p.Status, Header: http.Header{}, Body: []byte(p.HTML)}
	if p.URL == doc.url {
		res.Header = doc.header.Clone()
		if res.Status == 0 {
			res.Status = doc.status
		}
	} else if p.ContentType != "" {
		res.Header.Set("Content-Type", p.ContentType)
	}
	res.FinalURL, _ = url.Parse(p.URL)
	return res, nil
}

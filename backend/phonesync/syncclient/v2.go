package syncclient

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	bp "mangabookmark/backend/phonesync/backuppb"
)

// V2 is a phone speaking SyncYomi protocol v2 the way TachiyomiSY's v2
// client does: jobobby04/TachiyomiSY pull request #1648,
// app/src/main/java/eu/kanade/tachiyomi/data/sync/service/SyncYomiSyncService.kt
// at 143071e64d2f6c5ffefea6a693c154c6a7983394 and BackupRequestBody.kt at
// 850b852837c9c803265e73c20f472a91841951b1 (read 2026-12-06). It probes
// the capabilities, posts its library (whole, or what changed since its
// last push) gzipped and streamed with one record per manga, keeps the
// cursor and the full-requested flag, and restores the answer over its
// library as the app's restore does (MangaRestorer.kt's rules, research
// docs/sources.md (phone sync) §3) unless X-Sync-Changed is false.
type V2 struct {
	Host, Key, DeviceID, DeviceName string
	HTTP                            *http.Client
	Msgs                            bp.Messages
	// Library is the phone's library; tests change it between syncs.
	Library *dynamicpb.Message
	// Cursor and FullRequested are the client's stored preferences.
	Cursor        int64
	FullRequested bool
	// PendingDeleted are category uids deleted on the phone, sent once.
	PendingDeleted []int64
	// pushed is each entity's bytes at the last successful push: what a
	// delta leaves out.
	pushed map[string]string
}

// V2Result is one sync's outcome.
type V2Result struct {
	Status        int
	Body          string // the error body, when Status is not 200
	Cursor        int64
	Changed       bool
	FullRequested bool
	Answer        *dynamicpb.Message
	Full          bool // the client sent its whole library
}

func (c *V2) headers(r *http.Request) {
	r.Header.Set("X-API-Token", c.Key)
	r.Header.Set("X-Device-ID", c.DeviceID)
	r.Header.Set("X-Device-Name", c.DeviceName)
}

// Capabilities probes GET /api/sync/v2/capabilities: 200 is v2, 404 an
// old server; anything else fails the sync.
func (c *V2) Capabilities(ctx context.Context) (bool, error) {
	r, err := http.NewRequestWithContext(ctx, http.MethodGet, c.Host+"/api/sync/v2/capabilities", nil)
	if err != nil {
		return false, err
	}
	c.headers(r)
	resp, err := c.HTTP.Do(r)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
		return true, nil
	case http.StatusNotFound:
		return false, nil
	}
	return false, fmt.Errorf("syncclient: capabilities: status %d", resp.StatusCode)
}

// NeedsFull is the client's rule for a full upload: no cursor yet, or the
// server asked for one (the daily full upload is left to the caller).
func (c *V2) NeedsFull() bool { return c.Cursor == 0 || c.FullRequested }

// Sync runs one v2 merge: the whole library when full or NeedsFull, else
// the manga changed since the last push (each with only its changed
// chapters) and every category.
func (c *V2) Sync(ctx context.Context, full bool) (V2Result, error) {
	full = full || c.NeedsFull()
	up := c.upload(full)
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(writeStreamed(pw, up)) }()
	r, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Host+"/api/sync/v2/merge", pr)
	if err != nil {
		return V2Result{}, err
	}
	c.headers(r)
	r.Header.Set("X-Sync-Cursor", strconv.FormatInt(c.Cursor, 10))
	r.Header.Set("X-Sync-Full", strconv.FormatBool(full))
	r.Header.Set("Content-Encoding", "gzip")
	r.Header.Set("Content-Type", "application/octet-stream")
	sent := c.PendingDeleted
	if len(sent) > 0 {
		parts := make([]string, len(sent))
		for i, u := range sent {
			parts[i] = strconv.FormatInt(u, 10)
		}
		r.Header.Set("X-Sync-Deleted-Categories", strings.Join(parts, ","))
	}
	resp, err := c.HTTP.Do(r)
	if err != nil {
		return V2Result{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return V2Result{}, err
	}
	res := V2Result{Status: resp.StatusCode, Full: full}
	if resp.StatusCode != http.StatusOK {
		res.Body = string(body)
		return res, nil
	}
	res.Answer, err = bp.Unmarshal(c.Msgs.Backup, body)
	if err != nil {
		return res, fmt.Errorf("syncclient: the answer is not a backup: %w", err)
	}
	cur, err := strconv.ParseInt(resp.Header.Get("X-Sync-Cursor"), 10, 64)
	if err != nil {
		return res, fmt.Errorf("syncclient: missing X-Sync-Cursor")
	}
	res.Cursor = cur
	res.Changed = resp.Header.Get("X-Sync-Changed") != "false"
	res.FullRequested = resp.Header.Get("X-Sync-Full-Requested") == "true"
	c.Cursor, c.FullRequested = cur, res.FullRequested
	c.PendingDeleted = c.PendingDeleted[len(sent):]
	c.remember()
	if res.Changed {
		Restore(c.Msgs, c.Library, res.Answer)
		c.remember()
	}
	return res, nil
}

// upload is the Backup the client sends.
func (c *V2) upload(full bool) *dynamicpb.Message {
	if full || c.pushed == nil {
		return c.Library
	}
	b := bp.New(c.Msgs.Backup)
	// Every category (the server maps category numbers with them) and the
	// source list (the app's backup writes the sources of what it holds).
	for _, f := range []string{"backup_categories", "backup_sources"} {
		for _, x := range bp.List(c.Library, f) {
			bp.Append(b, f, x)
		}
	}
	for _, m := range bp.List(c.Library, "backup_manga") {
		mk := mangaKey(m)
		var changed []protoreflect.Message
		for _, ch := range bp.List(m, "chapters") {
			if c.pushed["chapter "+mk+" "+bp.String(ch, "url")] != encode(ch) {
				changed = append(changed, ch)
			}
		}
		if c.pushed["manga "+mk] == encode(stripped(m)) && len(changed) == 0 {
			continue
		}
		d := stripped(m)
		bp.SetInts(d, "categories", bp.Ints(m, "categories"))
		for _, ch := range changed {
			bp.Append(d, "chapters", ch)
		}
		bp.Append(b, "backup_manga", d)
	}
	return b
}

// remember notes the library as pushed.
func (c *V2) remember() {
	c.pushed = map[string]string{}
	for _, m := range bp.List(c.Library, "backup_manga") {
		mk := mangaKey(m)
		c.pushed["manga "+mk] = encode(stripped(m))
		for _, ch := range bp.List(m, "chapters") {
			c.pushed["chapter "+mk+" "+bp.String(ch, "url")] = encode(ch)
		}
	}
}

// writeStreamed writes b gzipped as BackupRequestBody.kt does: each manga
// as a field-1 record of its own, then the rest of the Backup.
func writeStreamed(w io.Writer, b *dynamicpb.Message) error {
	zw := gzip.NewWriter(w)
	for _, m := range bp.List(b, "backup_manga") {
		mb, err := bp.Marshal(m.Interface())
		if err != nil {
			return err
		}
		rec := protowire.AppendTag(nil, 1, protowire.BytesType)
		rec = protowire.AppendBytes(rec, mb)
		if _, err := zw.Write(rec); err != nil {
			return err
		}
	}
	rest := proto.Clone(b).ProtoReflect()
	bp.Clear(rest, "backup_manga")
	rb, err := bp.Marshal(rest.Interface())
	if err != nil {
		return err
	}
	if _, err := zw.Write(rb); err != nil {
		return err
	}
	return zw.Close()
}

func mangaKey(m protoreflect.Message) string {
	return strconv.FormatInt(bp.Int(m, "source"), 10) + "|" + bp.String(m, "url")
}

func stripped(m protoreflect.Message) protoreflect.Message {
	s := proto.Clone(m.Interface()).ProtoReflect()
	bp.Clear(s, "chapters")
	bp.Clear(s, "categories")
	return s
}

func encode(m protoreflect.Message) string {
	b, err := bp.Marshal(m.Interface())
	if err != nil {
		panic(err)
	}
	return string(b)
}

package faults

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// progressWrite is one POST /api/progress of a single read and what the
// backend answered.
type progressWrite struct {
	site, seriesID, number string
	status                 int // 0 when the backend did not answer
}

// postProgress sends one read for a Series with the Reader token and
// returns the status (0 when the request got no answer).
func (d *deployment) postProgress(b *backend, site, seriesID, number string) progressWrite {
	body, _ := json.Marshal(map[string]any{"reads": []map[string]any{{
		"site": site, "series_id": seriesID, "number": number,
		"read_at": time.Now().UTC().Add(-time.Minute).Format(time.RFC3339),
	}}})
	req, _ := http.NewRequestWithContext(context.Background(), "POST", b.url+"/api/progress", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+d.reader)
	req.Header.Set("Content-Type", "application/json")
	w := progressWrite{site: site, seriesID: seriesID, number: number}
	resp, err := (&http.Client{Timeout: 15 * time.Second}).Do(req)
	if err != nil {
		return w
	}
	defer resp.Body.Close()
	w.status = resp.StatusCode
	if w.status == 200 {
		var res struct {
			Applied int `json:"applied"`
			Ignored int `json:"ignored"`
		}
		if json.NewDecoder(resp.Body).Decode(&res) != nil || res.Applied+res.Ignored != 1 {
			w.status = -1 // a 200 that did not take the read
		}
	}
	return w
}

// checkProgress fails unless every write that returned 2xx is stored
// exactly once with its number, and no Series has two Progress rows.
func (d *deployment) checkProgress(writes []progressWrite) {
	d.t.Helper()
	ctx := context.Background()
	if n := d.count(`SELECT count(*) FROM (SELECT 1 FROM progress GROUP BY reader_id, site, series_id HAVING count(*) > 1) x`); n != 0 {
		d.t.Errorf("%d Series hold more than one Progress row", n)
	}
	var rid int64
	if err := d.pool.QueryRow(ctx, `SELECT id FROM readers WHERE discord_id = $1`, readerID).Scan(&rid); err != nil {
		d.t.Fatalf("reader row: %v", err)
	}
	for _, w := range writes {
		if w.status < 200 || w.status > 299 {
			continue
		}
		var n int
		var num string
		err := d.pool.QueryRow(ctx, `SELECT count(*), coalesce(max(number)::text, '') FROM progress WHERE reader_id = $1 AND site = $2 AND series_id = $3`,
			rid, w.site, w.seriesID).Scan(&n, &num)
		if err != nil {
			d.t.Fatal(err)
		}
		if n != 1 || num != w.number {
			d.t.Errorf("progress %s/%s answered %d but the database holds %d rows, number %q (want %q)", w.site, w.seriesID, w.status, n, num, w.number)
		}
	}
}

func (w progressWrite) String() string {
	return fmt.Sprintf("%s/%s=%s:%d", w.site, w.seriesID, w.number, w.status)
}

package imports

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"

	"mangabookmark/backend/store"
)

// ExportVersion is the version of the export's JSON shape.
const ExportVersion = 1

// ExportRow is one bookmark in the export. A field the server does not know
// (no Latest Chapter yet, no Progress) is null in JSON and empty in CSV.
type ExportRow struct {
	Site           string     `json:"site"`
	SeriesID       string     `json:"series_id"`
	Title          string     `json:"title"`
	URL            string     `json:"url"`
	LatestNumber   *string    `json:"latest_number"`
	LatestSeenAt   *time.Time `json:"latest_seen_at"`
	ProgressNumber *string    `json:"progress_number"`
	ProgressReadAt *time.Time `json:"progress_read_at"`
	NotifyMode     string     `json:"notify_mode"`
	AddedAt        time.Time  `json:"added_at"`
	// NotifyPile and NotifyPileDays are a pile bookmark's thresholds
	// (absent for another mode): held until this many chapters are unread
	// or this many days have passed since the first held.
	NotifyPile     *int `json:"notify_pile,omitempty"`
	NotifyPileDays *int `json:"notify_pile_days,omitempty"`
	// WorkID is the Work the Series was a member of (JSON only; an import
	// does not take it: ids relink, and a Work's number is this server's).
	WorkID *int64 `json:"work_id,omitempty"`
	// IDs are the Series' external ids (JSON only); an import stores them
	// back with source import.
	IDs []ExportID `json:"ids,omitempty"`
	// State is the Reader's reading state of the story (reading, plan,
	// on_hold, dropped, completed, rereading); an import sets it back.
	State string `json:"state,omitempty"`
}

// ExportID is one external id of an exported Series.
type ExportID struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

// Export is the JSON export document; POST /api/imports takes it back.
type Export struct {
	Version   int         `json:"version"`
	Bookmarks []ExportRow `json:"bookmarks"`
}

// ExportColumns are the CSV export's columns, in order (the JSON's names).
// The pile thresholds come last, after the columns exports had before
// them, and are empty for a bookmark not in pile mode.
var ExportColumns = []string{"site", "series_id", "title", "url", "latest_number", "latest_seen_at",
	"progress_number", "progress_read_at", "notify_mode", "added_at", "notify_pile", "notify_pile_days", "state"}

// ExportOf reads every bookmark of a Reader, oldest first.
func ExportOf(ctx context.Context, st *store.Store, readerID int64) (Export, error) {
	list, err := st.ListBookmarks(ctx, readerID)
	if err != nil {
		return Export{}, fmt.Errorf("imports: export: %w", err)
	}
	modes, err := st.NotifyModes(ctx, readerID)
	if err != nil {
		return Export{}, fmt.Errorf("imports: export: %w", err)
	}
	ids, err := st.ReaderExternalIDs(ctx, readerID)
	if err != nil {
		return Export{}, fmt.Errorf("imports: export: %w", err)
	}
	out := Export{Version: ExportVersion, Bookmarks: make([]ExportRow, 0, len(list))}
	for i := len(list) - 1; i >= 0; i-- { // ListBookmarks is newest first
		b := list[i]
		row := ExportRow{Site: b.Site, SeriesID: b.SeriesID, Title: b.Title, URL: b.URL, AddedAt: b.CreatedAt.UTC(),
			NotifyMode: modes[[2]string{b.Site, b.SeriesID}], WorkID: b.WorkID, State: b.State}
		for _, id := range ids[[2]string{b.Site, b.SeriesID}] {
			row.IDs = append(row.IDs, ExportID{Kind: id.Kind, Value: id.Value})
		}
		if b.LatestNumber != "" {
			n := b.LatestNumber
			row.LatestNumber, row.LatestSeenAt = &n, utcPtr(b.LatestSeenAt)
		}
		if b.ProgressNumber != "" {
			n := b.ProgressNumber
			row.ProgressNumber, row.ProgressReadAt = &n, utcPtr(b.ProgressReadAt)
		}
		if row.NotifyMode == store.NotifyPile {
			pile, days := b.NotifyPile, b.NotifyPileDays
			row.NotifyPile, row.NotifyPileDays = &pile, &days
		}
		out.Bookmarks = append(out.Bookmarks, row)
	}
	return out, nil
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// WriteJSON writes the export as indented JSON.
func WriteJSON(w io.Writer, e Export) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(e); err != nil {
		return fmt.Errorf("imports: write json: %w", err)
	}
	return nil
}

// WriteCSV writes the export as CSV with ExportColumns as its header.
func WriteCSV(w io.Writer, e Export) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(ExportColumns); err != nil {
		return fmt.Errorf("imports: write csv: %w", err)
	}
	for _, b := range e.Bookmarks {
		rec := []string{b.Site, b.SeriesID, csvSafe(b.Title), b.URL, deref(b.LatestNumber), timeText(b.LatestSeenAt),
			deref(b.ProgressNumber), timeText(b.ProgressReadAt), b.NotifyMode, b.AddedAt.Format(time.RFC3339Nano),
			intText(b.NotifyPile), intText(b.NotifyPileDays), b.State}
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("imports: write csv: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("imports: write csv: %w", err)
	}
	return nil
}

// csvSafe keeps a Site-given title from running as a formula when the CSV
// is opened in a spreadsheet: a leading =, +, - or @ gets a quote mark.
func csvSafe(s string) string {
	if s != "" && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@' || s[0] == '\t' || s[0] == '\r') {
		return "'" + s
	}
	return s
}

func intText(n *int) string {
	if n == nil {
		return ""
	}
	return strconv.Itoa(*n)
}

func timeText(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

package imports

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"mangabookmark/backend/store"
)

// MaxCSVFields is the most fields one CSV row may hold: an import reads
// at most five columns, and a spreadsheet's export has a few dozen.
const MaxCSVFields = 1000

// DecodeCSV reads a CSV import: a header row naming a "url" column, and
// optionally "progress", "read_at" and "title" (this server's own CSV export, with
// "progress_number", "progress_read_at", "notify_mode", a pile
// bookmark's "notify_pile" and "notify_pile_days", and "state", reads the same). read_at is
// RFC 3339 or a date (2006-01-02). A row of more than MaxCSVFields fields
// is refused (ErrTooLarge) before it is built.
func DecodeCSV(r io.Reader) (*Parsed, error) {
	cr := csv.NewReader(&fieldCounter{r: r, line: 1})
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	head, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, errorf(ErrUnreadable, "the CSV is empty: its first row must name a \"url\" column")
	}
	if err != nil {
		return nil, csvProblem(err)
	}
	col := map[string]int{}
	for i, h := range head {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		if _, dup := col[h]; !dup {
			col[h] = i
		}
	}
	urlCol, ok := col["url"]
	if !ok {
		return nil, errorf(ErrUnreadable, "the CSV's first row names no \"url\" column (it names %s)", strings.Join(head, ", "))
	}
	progCol, readCol := pick(col, "progress", "progress_number"), pick(col, "read_at", "progress_read_at")
	modeCol := pick(col, "notify_mode")
	pileCol, daysCol := pick(col, "notify_pile"), pick(col, "notify_pile_days")
	stateCol, titleCol := pick(col, "state"), pick(col, "title")
	p := &Parsed{Kind: KindCSV}
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, csvProblem(err)
		}
		url := field(rec, urlCol)
		label := url
		if label == "" {
			label = fmt.Sprintf("row %d", line)
		}
		it, reason := rowItem(label, url, field(rec, progCol), nil)
		if reason == "" && it.Number != "" {
			if raw := field(rec, readCol); raw != "" {
				t, ok := parseTime(raw)
				if !ok {
					reason = fmt.Sprintf("read_at %q is not a time (RFC 3339, or a date such as 2026-12-01)", raw)
				}
				it.ReadAt = &t
			}
		}
		if mode := field(rec, modeCol); reason == "" && mode != "" {
			if mode != "each" && mode != "off" && mode != "pile" {
				reason = fmt.Sprintf("notify_mode %q is not each, off or pile", mode)
			}
			it.NotifyMode = mode
		}
		it.Title = csvTitle(field(rec, titleCol))
		if st := field(rec, stateCol); reason == "" && st != "" {
			reason, it.State = stateReason(st), st
		}
		if reason == "" && it.NotifyMode == store.NotifyPile {
			it.NotifyPile, it.NotifyPileDays, reason = csvPile(field(rec, pileCol), field(rec, daysCol))
		}
		if reason != "" {
			err = p.skip(label, reason)
		} else {
			err = p.add(it)
		}
		if err != nil {
			return nil, err
		}
	}
	if len(p.Items)+len(p.Unsupported) == 0 {
		return nil, errorf(ErrUnreadable, "the CSV has a header but no rows")
	}
	return p, nil
}

// csvTitle is a CSV's title as written: this server's export puts a "'"
// before a title starting "=", "+", "-" or "@" (csvSafe), taken off here.
func csvTitle(s string) string {
	if len(s) > 1 && s[0] == '\'' && strings.ContainsRune("=+-@", rune(s[1])) {
		return s[1:]
	}
	return s
}

// csvPile reads a pile row's notify_pile and notify_pile_days (empty: the
// default) as the JSON export's are read.
func csvPile(pile, days string) (int, int, string) {
	var row ExportRow
	for _, f := range []struct {
		name, raw string
		out       **int
	}{{"notify_pile", pile, &row.NotifyPile}, {"notify_pile_days", days, &row.NotifyPileDays}} {
		if f.raw == "" {
			continue
		}
		n, err := strconv.Atoi(f.raw)
		if err != nil {
			return 0, 0, fmt.Sprintf("%s %q is not a whole number", f.name, f.raw)
		}
		*f.out = &n
	}
	if reason := pileReason(row); reason != "" {
		return 0, 0, reason
	}
	return derefInt(row.NotifyPile), derefInt(row.NotifyPileDays), ""
}

// fieldCounter passes a CSV through to encoding/csv, counting the fields
// of each row as encoding/csv splits them: a comma outside quotes starts a
// field, a newline outside quotes ends the row, and every quote turns
// quoting on or off (exact for any CSV encoding/csv accepts, "" within a
// quoted field included; a stray quote it refuses anyway). Past
// MaxCSVFields it fails with ErrTooLarge, before encoding/csv has made the
// row's list of fields, which a row of millions of commas makes gigabytes.
type fieldCounter struct {
	r      io.Reader
	quoted bool
	commas int // outside quotes, in the row so far
	line   int // of the input, from 1
}

func (c *fieldCounter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	for i, b := range p[:n] {
		switch {
		case b == '"':
			c.quoted = !c.quoted
		case b == '\n':
			c.line++
			if !c.quoted {
				c.commas = 0
			}
		case b == ',' && !c.quoted:
			c.commas++
			if c.commas >= MaxCSVFields {
				return i, errorf(ErrTooLarge, "line %d of the CSV has more than %d fields, more than an import reads", c.line, MaxCSVFields)
			}
		}
	}
	return n, err
}

// pick is the column of the first name the header has, or -1.
func pick(col map[string]int, names ...string) int {
	for _, n := range names {
		if i, ok := col[n]; ok {
			return i
		}
	}
	return -1
}

func field(rec []string, i int) string {
	if i < 0 || i >= len(rec) {
		return ""
	}
	return strings.TrimSpace(rec[i])
}

func parseTime(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

func csvProblem(err error) error {
	if errors.Is(err, ErrTooLarge) {
		return err
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return errorf(ErrUnreadable, "the CSV does not parse at line %d: %v", pe.Line, pe.Err)
	}
	return errorf(ErrUnreadable, "the CSV could not be read: %v", err)
}

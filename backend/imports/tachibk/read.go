package tachibk

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"io"

	"google.golang.org/protobuf/encoding/protowire"
)

// Limits bound what Read accepts. A zero field takes the default its
// comment names.
type Limits struct {
	// MaxInflated is the most bytes the backup may hold once gunzipped
	// (default 256 MiB): past it, a zip bomb or a backup too large to take.
	MaxInflated int64
	// MaxMessage is the largest single manga or source entry (default
	// 16 MiB; a manga with ten thousand chapters is well under 4 MiB).
	MaxMessage int
	// MaxManga is the most manga entries a backup may hold (default 10000).
	MaxManga int
	// MaxSources is the most source entries a backup may hold (default
	// 10000; Mihon lists the sources of the manga it holds, so no more than
	// its manga).
	MaxSources int
	// MaxText is the most bytes of text Read keeps across the backup: the
	// manga's URLs and titles, their read chapters' URLs, tracking URLs
	// and merged references' URLs, and the sources' names (default
	// 16 MiB; ten thousand real manga keep about 2 MiB).
	MaxText int
}

// Defaults for Limits.
const (
	DefaultMaxInflated = 256 << 20
	DefaultMaxMessage  = 16 << 20
	DefaultMaxManga    = 10000
	DefaultMaxSources  = 10000
	DefaultMaxText     = 16 << 20
)

func (l Limits) withDefaults() Limits {
	if l.MaxInflated <= 0 {
		l.MaxInflated = DefaultMaxInflated
	}
	if l.MaxMessage <= 0 {
		l.MaxMessage = DefaultMaxMessage
	}
	if l.MaxManga <= 0 {
		l.MaxManga = DefaultMaxManga
	}
	if l.MaxSources <= 0 {
		l.MaxSources = DefaultMaxSources
	}
	if l.MaxText <= 0 {
		l.MaxText = DefaultMaxText
	}
	return l
}

// ErrTooLarge marks a backup past Limits (answered 413).
var ErrTooLarge = errors.New("tachibk: backup too large")

// ErrMalformed marks a file that is not a readable backup (answered 400).
var ErrMalformed = errors.New("tachibk: not a readable backup")

// Read decodes a backup from r: gzip'd (as Mihon writes it) or bare
// protobuf. Every refusal is an *Error (its Kind ErrTooLarge or
// ErrMalformed) whose Reason says what is wrong; nothing of a refused file
// is returned.
func Read(r io.Reader, lim Limits) (*Backup, error) {
	lim = lim.withDefaults()
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(2)
	if len(head) == 0 {
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, malformed(err, "the file could not be read: %v", err)
		}
		return nil, malformed(nil, "the file is empty")
	}
	var src io.Reader = br
	if len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, malformed(err, "the gzip header is damaged (%v)", err)
		}
		defer zr.Close()
		src = zr
	}
	cr := &capReader{r: src, left: lim.MaxInflated}
	d := &decoder{r: bufio.NewReaderSize(cr, 64<<10), lim: lim}
	b, err := d.backup()
	if err != nil {
		if cr.over {
			return nil, tooLarge("it inflates past %d MiB, more than any real backup holds", lim.MaxInflated>>20)
		}
		return nil, err
	}
	return b, nil
}

// capReader fails once more than left bytes have been read.
type capReader struct {
	r    io.Reader
	left int64
	over bool
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left < 0 {
		c.over = true
		return 0, ErrTooLarge
	}
	// One byte past the limit tells a backup of exactly the limit from a
	// larger one.
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		c.over = true
		return n, ErrTooLarge
	}
	return n, err
}

// decoder walks the top level of a Backup message from a stream.
type decoder struct {
	r    *bufio.Reader
	lim  Limits
	buf  []byte
	text int // bytes of text kept so far (Limits.MaxText)
}

// truncated explains an error met in the middle of the stream.
func truncated(err error) error {
	if errors.Is(err, ErrTooLarge) {
		return err
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return malformed(nil, "the file ends in the middle of an entry (truncated?)")
	}
	if errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) {
		return malformed(err, "the gzip data is damaged (%v)", err)
	}
	return malformed(err, "the file could not be read (%v)", err)
}

func (d *decoder) backup() (*Backup, error) {
	b := &Backup{}
	for {
		v, err := binary.ReadUvarint(d.r)
		if errors.Is(err, io.EOF) {
			return b, nil
		}
		if err != nil {
			return nil, truncated(err)
		}
		num, typ := protowire.DecodeTag(v)
		if num < protowire.MinValidNumber || num > protowire.MaxValidNumber {
			return nil, malformed(nil, "field number %d is not valid protobuf", num)
		}
		switch typ {
		case protowire.BytesType:
			n, err := binary.ReadUvarint(d.r)
			if err != nil {
				return nil, truncated(err)
			}
			if num != fBackupManga && num != fBackupSources && num != fBackupBrokenSources {
				if err := d.skip(n); err != nil {
					return nil, err
				}
				continue
			}
			if n > uint64(d.lim.MaxMessage) {
				return nil, tooLarge("one entry claims %d bytes, over the %d MiB an entry may hold", n, d.lim.MaxMessage>>20)
			}
			msg, err := d.read(int(n))
			if err != nil {
				return nil, err
			}
			if num == fBackupManga {
				if len(b.Manga) >= d.lim.MaxManga {
					return nil, tooLarge("it lists more than %d manga", d.lim.MaxManga)
				}
				m, err := parseManga(msg)
				if err != nil {
					return nil, err
				}
				if err := d.keep(mangaText(m)); err != nil {
					return nil, err
				}
				b.Manga = append(b.Manga, m)
			} else {
				if len(b.Sources) >= d.lim.MaxSources {
					return nil, tooLarge("it lists more than %d sources", d.lim.MaxSources)
				}
				parse := parseSource
				if num == fBackupBrokenSources {
					parse = parseBrokenSource
				}
				s, err := parse(msg)
				if err != nil && num == fBackupBrokenSources {
					continue // the legacy list is a fallback: a damaged entry is dropped alone
				}
				if err != nil {
					return nil, err
				}
				if err := d.keep(len(s.Name)); err != nil {
					return nil, err
				}
				b.Sources = append(b.Sources, s)
			}
		case protowire.VarintType:
			if _, err := binary.ReadUvarint(d.r); err != nil {
				return nil, truncated(err)
			}
		case protowire.Fixed32Type:
			if err := d.skip(4); err != nil {
				return nil, err
			}
		case protowire.Fixed64Type:
			if err := d.skip(8); err != nil {
				return nil, err
			}
		default:
			return nil, malformed(nil, "wire type %d at the top level is not what Mihon writes", typ)
		}
	}
}

// mangaText is how many bytes of text a manga keeps: its URL, title, read
// chapter's URL, tracking URLs and merged references' URLs.
func mangaText(m Manga) int {
	n := len(m.URL) + len(m.Title) + len(m.Read.URL)
	for _, t := range m.Tracking {
		n += len(t.URL)
	}
	for _, r := range m.Merged {
		n += len(r.URL)
	}
	return n
}

// keep counts n more bytes of text kept, refusing past Limits.MaxText.
func (d *decoder) keep(n int) error {
	d.text += n
	if d.text > d.lim.MaxText {
		return tooLarge("its titles, URLs and source names come to more than %d MiB", d.lim.MaxText>>20)
	}
	return nil
}

// read returns the next n bytes (valid until the next read).
func (d *decoder) read(n int) ([]byte, error) {
	if cap(d.buf) < n {
		d.buf = make([]byte, n)
	}
	d.buf = d.buf[:n]
	if _, err := io.ReadFull(d.r, d.buf); err != nil {
		return nil, truncated(err)
	}
	return d.buf, nil
}

// skip discards n bytes of a field not read.
func (d *decoder) skip(n uint64) error {
	if n > uint64(d.lim.MaxInflated) {
		return tooLarge("a field claims %d bytes, past the %d MiB a backup may inflate to", n, d.lim.MaxInflated>>20)
	}
	got, err := io.CopyN(io.Discard, d.r, int64(n))
	if err != nil || got != int64(n) {
		if err == nil {
			err = io.ErrUnexpectedEOF
		}
		return truncated(err)
	}
	return nil
}

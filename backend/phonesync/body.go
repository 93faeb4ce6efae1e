package phonesync

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
)

// ReadBody reads an upload's body within the caps (ReadBodySized with no
// size known).
func ReadBody(r io.Reader, gzipped bool, maxBody, maxInflated int64) ([]byte, error) {
	return ReadBodySized(r, gzipped, 0, maxBody, maxInflated)
}

// ReadBodySized reads an upload's body within the caps: at most maxBody bytes
// as sent and, when gzipped (Content-Encoding: gzip, as TachiyomiSY's v2
// client sends it), at most maxInflated once inflated, streaming (the
// body is never held compressed and inflated at once). It returns the
// inflated bytes: what the SyncYomi server stores. Past a cap it is
// ErrTooLarge with a sentence; a gzip body that does not inflate is an
// error saying so. sizeHint, when above 0, is what the inflated body is said
// to be (a raw body's Content-Length): the buffer is made that large at
// once, within the cap, instead of doubling its way there.
func ReadBodySized(r io.Reader, gzipped bool, sizeHint, maxBody, maxInflated int64) ([]byte, error) {
	sent := &capped{r: r, left: maxBody, mark: true}
	var src io.Reader = sent
	limit := maxBody
	if gzipped {
		zr, err := gzip.NewReader(bufio.NewReaderSize(sent, 32<<10))
		if err != nil {
			if sent.over {
				return nil, tooLargeSent(maxBody)
			}
			return nil, fmt.Errorf("phonesync: the body says Content-Encoding: gzip but is not gzip (%w)", err)
		}
		defer zr.Close()
		src, limit = zr, maxInflated
	}
	inflated := &capped{r: src, left: limit}
	var buf bytes.Buffer
	if sizeHint > 0 && sizeHint <= limit {
		buf.Grow(int(sizeHint) + bytes.MinRead)
	}
	_, err := buf.ReadFrom(inflated)
	switch {
	case sent.over:
		return nil, tooLargeSent(maxBody)
	case inflated.over:
		return nil, fmt.Errorf("%w: the library inflates past %s, more than a real library holds", ErrTooLarge, size(maxInflated))
	case err != nil && gzipped && !isReadErr(err):
		return nil, fmt.Errorf("phonesync: the gzip body is damaged (%w)", err)
	case err != nil:
		return nil, fmt.Errorf("phonesync: read body: %w", err)
	}
	return buf.Bytes(), nil
}

func tooLargeSent(n int64) error {
	return fmt.Errorf("%w: the body is larger than %s, the most an upload may send", ErrTooLarge, size(n))
}

// size is n bytes in MiB, or KiB below one MiB.
func size(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d KiB", n>>10)
}

// readErr marks an error of the request body itself (a client gone),
// not of the gzip stream.
type readErr struct{ err error }

func (e readErr) Error() string { return e.err.Error() }
func (e readErr) Unwrap() error { return e.err }

func isReadErr(err error) bool { var re readErr; return errors.As(err, &re) }

// capped fails once more than left bytes have come; with mark, an error
// of r itself is a readErr.
type capped struct {
	r    io.Reader
	left int64
	over bool
	mark bool
}

func (c *capped) Read(p []byte) (int, error) {
	if c.over {
		return 0, ErrTooLarge
	}
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		c.over = true
		return n, ErrTooLarge
	}
	if c.mark && err != nil && err != io.EOF {
		err = readErr{err}
	}
	return n, err
}

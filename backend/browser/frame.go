package browser

import (
	"errors"
	"fmt"
	"net"
	"sync/atomic"
)

// maxFrame is the largest DevTools message the connection reads for a
// body limit of maxBody: the page's HTML as a JSON string (at most six
// bytes per character, "\u00XX", and the read refuses more than maxBody
// characters in the page) plus room for the rest of the message. Reads
// check sizes in the page, so a frame this large is never a legitimate
// answer.
func maxFrame(maxBody int) int64 { return 6*int64(maxBody) + 1<<20 }

// frameLimit is the socket under rod's WebSocket reader, which allocates
// whatever size a frame header announces. It follows the frame headers in
// the byte stream from the end of the handshake (on, set once it is done:
// the browser sends nothing unasked, so its first frame starts there) and
// fails the read of a frame announced over max, before rod allocates it;
// the connection then ends like a dropped one, but overran tells why: only
// what a page supplies (its answers, its URLs, its requests) can make a
// message that large, so the read in the tab at the time is what failed,
// not the sidecar.
type frameLimit struct {
	net.Conn
	max int64
	on  bool

	hdr  [14]byte // the frame header read so far
	n    int      // bytes of hdr filled
	left int64    // payload bytes still to come in the current frame
	err  error

	over    atomic.Int64 // the size announced by the frame over max; 0 while none
	largest atomic.Int64 // the largest frame size announced so far (tests read it)
}

// errFrameOver is what the read of a frame over the bound fails with.
var errFrameOver = errors.New("DevTools frame over the bound")

// overran returns the size of the frame that passed the bound, or 0 when
// none did. It is safe to call from any goroutine.
func (f *frameLimit) overran() int64 { return f.over.Load() }

func (f *frameLimit) Read(p []byte) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	n, err := f.Conn.Read(p)
	for i := 0; f.on && i < n; {
		if f.left > 0 {
			step := int64(n - i)
			if step > f.left {
				step = f.left
			}
			f.left -= step
			i += int(step)
			continue
		}
		f.hdr[f.n] = p[i]
		f.n++
		i++
		size, done := f.header()
		if !done {
			continue
		}
		f.n = 0
		if size > f.largest.Load() {
			f.largest.Store(size)
		}
		if size > f.max {
			f.over.Store(size)
			f.err = fmt.Errorf("browser: %w: %d bytes, over %d", errFrameOver, size, f.max)
			return 0, f.err
		}
		f.left = size
	}
	return n, err
}

// header decodes the frame header in hdr once it is complete.
func (f *frameLimit) header() (int64, bool) {
	if f.n < 2 {
		return 0, false
	}
	ext := 0
	switch f.hdr[1] & 0x7f {
	case 126:
		ext = 2
	case 127:
		ext = 8
	}
	mask := 0
	if f.hdr[1]&0x80 != 0 {
		mask = 4
	}
	if f.n < 2+ext+mask {
		return 0, false
	}
	size := int64(f.hdr[1] & 0x7f)
	if ext > 0 {
		size = 0
		for _, b := range f.hdr[2 : 2+ext] {
			size = size<<8 | int64(b)
		}
		if size < 0 { // a 64-bit length with the top bit set
			size = 1<<63 - 1
		}
	}
	return size, true
}

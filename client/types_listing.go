package client

import "time"

// LaneListing is how a Lane reads its Site's "latest updates" listing: how
// often (seconds), when it last did and how that ended (an outcome word,
// "" before the first read), how many Series the last good read made due,
// and how many reads overflowed (nothing the look before had seen, even on
// page 2). Failures counts the reads that failed in a row since the last
// good one, and Failing says they are enough for the Lane to say so (three:
// Rest carries on alone meanwhile). A Lane whose Site has no listing
// carries nil.
type LaneListing struct {
	EveryS      int64      `json:"every_s"`
	LastAt      *time.Time `json:"last_at"`
	LastOutcome string     `json:"last_outcome"`
	Hinted      int        `json:"hinted"`
	Overflows   int64      `json:"overflows"`
	Failures    int        `json:"failures"`
	Failing     bool       `json:"failing"`
}

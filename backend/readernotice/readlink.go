package readernotice

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"mangabookmark/backend/store"
)

// ReadLinkTTL is how long a "Mark read" link of a notice works (the
// deliveries it names are kept as long).
const ReadLinkTTL = DeliveriesKept

// ReadLinkPath is where a notice's "Mark read" action POSTs.
const ReadLinkPath = "/act/read/"

// ErrBadReadLink is returned for a forged, altered or expired link.
var ErrBadReadLink = errors.New("readernotice: the mark-read link is not valid or has expired")

func (s *Service) readMAC(id, exp int64) string {
	m := hmac.New(sha256.New, s.cfg.Key)
	fmt.Fprintf(m, "mark-read\x00%d\x00%d", id, exp)
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:18])
}

// readLink is the signed "Mark read" URL of one delivery: POSTing it sets
// the Reader's Progress to every chapter of that Digest. "" without
// TOKEN_KEY or PUBLIC_BASE_URL.
func (s *Service) readLink(deliveryID int64) string {
	if len(s.cfg.Key) == 0 || s.cfg.BaseURL == "" || deliveryID == 0 {
		return ""
	}
	exp := s.cfg.Now().Add(ReadLinkTTL).Unix()
	return strings.TrimRight(s.cfg.BaseURL, "/") + ReadLinkPath + strconv.FormatInt(deliveryID, 10) + "." + strconv.FormatInt(exp, 10) + "." + s.readMAC(deliveryID, exp)
}

// MarkReadLink checks a "Mark read" token and moves the Reader's Progress
// to each chapter of its Digest (forward only, bookmarks kept as they
// are). It returns how many Progress rows moved.
func (s *Service) MarkReadLink(ctx context.Context, token string) (int, error) {
	parts := strings.Split(token, ".")
	if len(s.cfg.Key) == 0 || len(parts) != 3 || len(token) > 200 {
		return 0, ErrBadReadLink
	}
	id, err1 := strconv.ParseInt(parts[0], 10, 64)
	exp, err2 := strconv.ParseInt(parts[1], 10, 64)
	if err1 != nil || err2 != nil || !hmac.Equal([]byte(parts[2]), []byte(s.readMAC(id, exp))) {
		return 0, ErrBadReadLink
	}
	now := s.cfg.Now()
	if now.Unix() > exp {
		return 0, ErrBadReadLink
	}
	reader, payload, err := s.cfg.Store.GetDeliveryPayload(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return 0, ErrBadReadLink
	}
	if err != nil {
		return 0, err
	}
	var d Digest
	if err := json.Unmarshal(payload, &d); err != nil {
		return 0, ErrBadReadLink
	}
	moved := 0
	for _, c := range d.Chapters {
		ok, err := s.cfg.Store.AdvanceProgress(ctx, reader, c.Site, c.SeriesID, c.Number, c.URL, now)
		if err != nil {
			return moved, err
		}
		if ok {
			moved++
		}
	}
	return moved, nil
}

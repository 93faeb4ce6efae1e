package readernotice

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/xml"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/feeds"

	"mangabookmark/backend/store"
)

// Feed limits: the entries of the last 30 days, at most 100.
const (
	FeedWindow  = 30 * 24 * time.Hour
	FeedEntries = 100
)

// FeedTokenPrefix starts every feed token, so one is never mistaken for an
// API token (and the two HMAC domains never meet).
const FeedTokenPrefix = "mbf_"

// ErrNoFeed is returned for an unknown or rotated feed token, and when the
// server has no TOKEN_KEY to make feeds with.
var ErrNoFeed = errors.New("readernotice: no such feed")

// feedToken derives a Reader's feed token from their stored nonce under
// TOKEN_KEY: the database holds the nonce and the token's HMAC, never the
// token, yet the settings page can show the URL again.
func (s *Service) feedToken(readerID int64, nonce []byte) string {
	m := hmac.New(sha256.New, s.cfg.Key)
	fmt.Fprintf(m, "feed-token\x00%d\x00", readerID)
	m.Write(nonce)
	return FeedTokenPrefix + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

func (s *Service) tokenHMAC(token string) []byte {
	m := hmac.New(sha256.New, s.cfg.Key)
	m.Write([]byte(token))
	return m.Sum(nil)
}

// feedURL returns the Reader's feed URL, making their token on first use;
// "" when the server has no TOKEN_KEY.
func (s *Service) feedURL(ctx context.Context, st store.NotifySettings) (string, error) {
	if len(s.cfg.Key) == 0 {
		return "", nil
	}
	if st.FeedNonce == nil {
		return s.RotateFeed(ctx, st.ReaderID)
	}
	return s.urlFor(s.feedToken(st.ReaderID, st.FeedNonce)), nil
}

func (s *Service) urlFor(token string) string {
	return strings.TrimRight(s.cfg.BaseURL, "/") + "/feeds/" + token + ".atom"
}

// RotateFeed gives the Reader a new feed token and returns its URL; the
// previous URL answers 404 from then on.
func (s *Service) RotateFeed(ctx context.Context, readerID int64) (string, error) {
	if len(s.cfg.Key) == 0 {
		return "", errors.New("readernotice: rotate feed: the server has no TOKEN_KEY")
	}
	nonce := make([]byte, 16)
	_, _ = rand.Read(nonce)
	token := s.feedToken(readerID, nonce)
	if err := s.cfg.Store.SetFeedToken(ctx, readerID, nonce, s.tokenHMAC(token)); err != nil {
		return "", err
	}
	return s.urlFor(token), nil
}

// Feed renders the Atom 1.0 feed of the Reader whose token this is: one
// entry per Chapter Event of their bookmarks in the last 30 days, newest
// first, at most 100, leaving out what came out before the bookmark was
// made (the rule that owes a notice: no notices for the past, ADR 0017).
// Each entry's id is the event's own (a bigserial, never reused), so a
// feed reader shows every New Chapter as new. Site text is text: the
// title and summary are plain (type="text"), never markup.
func (s *Service) Feed(ctx context.Context, token string) ([]byte, error) {
	if len(s.cfg.Key) == 0 || !strings.HasPrefix(token, FeedTokenPrefix) || len(token) > 100 {
		return nil, ErrNoFeed
	}
	rd, err := s.cfg.Store.ReaderByFeedHMAC(ctx, s.tokenHMAC(token))
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrNoFeed
	}
	if err != nil {
		return nil, err
	}
	now := s.cfg.Now()
	evs, err := s.cfg.Store.FeedChapters(ctx, rd.ID, now.Add(-FeedWindow), FeedEntries)
	if err != nil {
		return nil, err
	}
	base := strings.TrimRight(s.cfg.BaseURL, "/")
	host := "mangabookmark"
	if u, err := url.Parse(base); err == nil && u.Hostname() != "" {
		host = u.Hostname()
	}
	lines, err := s.cfg.Store.FeedStatusLines(ctx, rd.ID, now.Add(-FeedWindow), FeedEntries)
	if err != nil {
		return nil, err
	}
	updated := now
	if len(evs) > 0 {
		updated = evs[0].SeenAt
	}
	if len(lines) > 0 && (len(evs) == 0 || lines[0].ChangedAt.After(updated)) {
		updated = lines[0].ChangedAt
	}
	name := rd.Name
	if name == "" {
		name = "Reader " + rd.DiscordID
	}
	f := &feeds.Feed{
		Title:       "New chapters for " + name,
		Link:        &feeds.Link{Href: base + "/", Rel: "alternate"},
		Description: "New Chapters of the Series " + name + " bookmarks on mangabookmark",
		Author:      &feeds.Author{Name: "mangabookmark"},
		Updated:     updated.UTC(),
	}
	for _, e := range evs {
		title := e.SeriesTitle
		if title == "" {
			title = e.SeriesID
		}
		summary := "Chapter " + e.Number
		if e.ChapterTitle != "" {
			summary += ": " + e.ChapterTitle
		}
		f.Items = append(f.Items, &feeds.Item{
			Id:          "tag:" + host + ",2026:chapter-event/" + strconv.FormatInt(e.ID, 10),
			Title:       title + " " + e.Number,
			Link:        &feeds.Link{Href: e.URL},
			Description: summary + " is out on " + e.Site + ".",
			Updated:     e.SeenAt.UTC(),
			Created:     e.SeenAt.UTC(),
		})
	}
	f.Items = withStatusItems(f.Items, lines, host, base)
	af := (&feeds.Atom{Feed: f}).AtomFeed()
	af.Id = "tag:" + host + ",2026:feed/reader/" + strconv.FormatInt(rd.ID, 10)
	for _, e := range af.Entries {
		// gorilla/feeds marks a summary html; ours is Site text, which a
		// feed reader must show as written, "<" and "&" included.
		if e.Summary != nil {
			e.Summary.Type = "text"
		}
	}
	doc := atomDoc{Xmlns: af.Xmlns, Title: af.Title, ID: af.Id, Updated: af.Updated, Subtitle: af.Subtitle,
		Links: []feeds.AtomLink{*af.Link, {Href: s.urlFor(token), Rel: "self"}}, Author: af.Author, Entries: af.Entries}
	var buf bytes.Buffer
	if err := feeds.WriteXML(doc, &buf); err != nil {
		return nil, fmt.Errorf("readernotice: feed: %w", err)
	}
	return buf.Bytes(), nil
}

// atomDoc is the Atom feed as written: its metadata, both links included
// (the library as alternate, its own URL as self, RFC 4287 section
// 4.2.7.2), before its entries, as section 4.1.1's grammar wants and
// validators check. gorilla/feeds' AtomFeed has room for one link, and a
// second one added after it would follow the entries.
type atomDoc struct {
	XMLName  xml.Name          `xml:"feed"`
	Xmlns    string            `xml:"xmlns,attr"`
	Title    string            `xml:"title"`
	ID       string            `xml:"id"`
	Updated  string            `xml:"updated"`
	Subtitle string            `xml:"subtitle,omitempty"`
	Links    []feeds.AtomLink  `xml:"link"`
	Author   *feeds.AtomAuthor `xml:"author,omitempty"`
	Entries  []*feeds.AtomEntry
}

// FeedXml is what feeds.WriteXML encodes.
func (a atomDoc) FeedXml() any { return a }

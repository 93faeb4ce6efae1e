package crosswalk

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"mangabookmark/backend/muid"
	"mangabookmark/backend/store"
)

// The source lookup's answer, as MangaBaka's OpenAPI document describes it
// (docs/sources.md (ids) §2, read 2026-12-06): {"status":200,"data":{"series":
// [V1_Series_Default...],"source_response":null}}. Of a series only id,
// state, status, total_chapters and source are read. status is the
// publication status (cancelled, completed, hiatus, releasing, upcoming,
// unknown; docs/sources.md (status and time) §4), a string; total_chapters a string or
// null. source holds one object per provider, each
// {id, rating, rating_normalized}: anilist, my_anime_list, kitsu and
// anime_news_network ids are numbers or null, manga_updates' the base-36
// URL id or null.

// ErrHostile is an answer refused whole: not the documented shape (wrong
// types, too big), or a series that does not name the id asked about.
var ErrHostile = errors.New("crosswalk: hostile answer")

type envelope struct {
	Data struct {
		Series []series `json:"series"`
	} `json:"data"`
}

type series struct {
	ID     json.Number `json:"id"`
	State  string      `json:"state"`
	Status *string     `json:"status"`
	Total  *string     `json:"total_chapters"`
	Source struct {
		AniList      provider `json:"anilist"`
		MyAnimeList  provider `json:"my_anime_list"`
		Kitsu        provider `json:"kitsu"`
		MangaUpdates provider `json:"manga_updates"`
	} `json:"source"`
}

// provider is one source entry; ID stays raw so each kind checks its own
// type (a number, or MangaUpdates' string).
type provider struct {
	ID json.RawMessage `json:"id"`
}

// statuses maps MangaBaka's status words onto ours: upcoming, and any
// word not here, is unknown (it says nothing).
var statuses = map[string]string{
	"releasing": store.StatusReleasing,
	"completed": store.StatusCompleted,
	"hiatus":    store.StatusHiatus,
	"cancelled": store.StatusCancelled,
}

// story is what an answer says of the story itself: its status mapped
// onto ours (statuses; unknown when the series gives none, an empty one or
// a word we do not know: it names the story but says nothing of its
// status) and its final chapter (total_chapters, kept only for a
// completed story and only as a plain number). An answer that names no
// story has the zero story.
type story struct {
	Status       string
	FinalChapter string
}

// finalChapter matches a chapter number we store as a final chapter.
var finalChapter = regexp.MustCompile(`^[0-9]{1,6}(\.[0-9]{1,3})?$`)

// storyOf reads s's status and final chapter.
func storyOf(s series) story {
	st := story{Status: store.StatusUnknown}
	if s.Status != nil {
		if ours, ok := statuses[strings.ToLower(strings.TrimSpace(*s.Status))]; ok {
			st.Status = ours
		}
	}
	if st.Status == store.StatusCompleted && s.Total != nil {
		if t := strings.TrimSpace(*s.Total); finalChapter.MatchString(t) && strings.Trim(t, "0.") != "" {
			st.FinalChapter = t
		}
	}
	return st
}

// parseAnswer reads a 200's body into the ids of the one active series it
// names, checked against the id asked about (kind, value: canonical),
// and what it says of the story. No active series gives no ids; two or
// more are ambiguous and give none too (MangaBaka merges duplicates;
// until it does, we do not guess).
func parseAnswer(body []byte, kind, value string) ([]store.ExternalID, story, error) {
	ids, s, err := parseSeries(body, kind, value)
	if err != nil || s == nil {
		return ids, story{}, err
	}
	return ids, storyOf(*s), nil
}

// parseSeries is parseAnswer's ids and the one active series.
func parseSeries(body []byte, kind, value string) ([]store.ExternalID, *series, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var env envelope
	if err := dec.Decode(&env); err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrHostile, err)
	}
	var active []series
	for _, s := range env.Data.Series {
		if s.State == "active" {
			active = append(active, s)
		}
	}
	if len(active) != 1 {
		return nil, nil, nil
	}
	s := active[0]
	var ids []store.ExternalID
	add := func(k, raw string) {
		if raw == "" {
			return
		}
		if id, err := store.CanonicalExternalID(store.ExternalID{Kind: k, Value: raw, Source: store.IDFromCrosswalk}); err == nil {
			ids = append(ids, store.ExternalID{Kind: id.Kind, Value: id.Value})
		}
	}
	al, err1 := number(s.Source.AniList.ID)
	mal, err2 := number(s.Source.MyAnimeList.ID)
	kt, err3 := number(s.Source.Kitsu.ID)
	mu, err4 := text(s.Source.MangaUpdates.ID)
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrHostile, err)
	}
	add("al", al)
	add("mal", mal)
	add("kt", kt)
	if mu != "" {
		// MangaBaka writes the URL id; a legacy-looking value is not a
		// form it documents, so it is left out rather than guessed.
		if k, v, err := muid.Parse(mu, false); err == nil && k == muid.Kind {
			ids = append(ids, store.ExternalID{Kind: k, Value: v})
		}
	}
	mb, err := number(json.RawMessage(s.ID.String()))
	if err != nil || mb == "" {
		return nil, nil, fmt.Errorf("%w: the series id %q is not a number", ErrHostile, s.ID.String())
	}
	add("mb", mb)
	if kind != muid.KindLegacy && !names(ids, kind, value) {
		// The answer is about another story than the one asked about: a
		// legacy id is the exception, since MangaBaka names none.
		return nil, nil, fmt.Errorf("%w: the series names no %s %s", ErrHostile, kind, value)
	}
	return ids, &s, nil
}

// names reports whether ids hold (kind, value).
func names(ids []store.ExternalID, kind, value string) bool {
	for _, id := range ids {
		if id.Kind == kind && id.Value == value {
			return true
		}
	}
	return false
}

// number reads a provider id that must be a whole positive number or null
// ("" for null or absent).
func number(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	n, err := strconv.ParseUint(string(raw), 10, 63)
	if err != nil || n == 0 {
		return "", fmt.Errorf("id %.40s is not a positive whole number", raw)
	}
	return strconv.FormatUint(n, 10), nil
}

// text reads a provider id that must be a string or null.
func text(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("id %.40s is not a string", raw)
	}
	return s, nil
}

package imports

import (
	"bufio"
	"strings"
)

// FromLines makes a urls import of text holding one URL a line (the
// library page's field, the import page's text box); blank lines are
// skipped.
func FromLines(text string) (*Parsed, error) {
	p := &Parsed{Kind: KindURLs}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 4096), MaxBodyBytes)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if err := p.add(Item{Label: line, URL: line}); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, errorf(ErrUnreadable, "the list of URLs could not be read: %v", err)
	}
	if len(p.Items) == 0 {
		return nil, errorf(ErrUnreadable, "the list holds no URL: paste one Series or chapter URL a line")
	}
	return p, nil
}

// fromURLs makes a urls import of a JSON list.
func fromURLs(urls []string) (*Parsed, error) {
	p := &Parsed{Kind: KindURLs}
	for _, u := range urls {
		u = strings.TrimSpace(u)
		if u == "" {
			if err := p.skip("(empty)", "an empty string is no URL"); err != nil {
				return nil, err
			}
			continue
		}
		if err := p.add(Item{Label: u, URL: u}); err != nil {
			return nil, err
		}
	}
	if len(p.Items)+len(p.Unsupported) == 0 {
		return nil, errorf(ErrUnreadable, `"urls" is empty: send at least one Series or chapter URL`)
	}
	return p, nil
}

// Package listing turns a Site's own "latest updates" listing into hints:
// which followed Series moved since the last look and so should be read at
// once. A listing never writes a Latest Chapter; it only makes a Series due
// sooner (never later than Rest makes it) through the store's cutoff, and
// the ordinary read path does the reading (docs/adr, "listings hint").
// The Lanes call it; it sits above the store.
package listing

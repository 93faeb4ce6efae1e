package sitesim

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Site names, in registry order.
const (
	Kagane      = "kagane"
	Comix       = "comix"
	Natomanga   = "natomanga"
	MangaDex    = "mangadex"
	WeebCentral = "weebcentral"
	MangaPill   = "mangapill"
)

// SiteNames lists the simulated Sites in registry order; StartOn gives them
// consecutive ports in this order.
var SiteNames = []string{Kagane, Comix, Natomanga, MangaDex, WeebCentral, MangaPill}

func hash64(parts ...any) uint64 {
	h := fnv.New64a()
	var buf [24]byte
	for _, p := range parts {
		switch v := p.(type) {
		case string:
			_, _ = h.Write([]byte(v))
		case int:
			_, _ = h.Write(strconv.AppendInt(buf[:0], int64(v), 10))
		case uint64:
			_, _ = h.Write(strconv.AppendUint(buf[:0], v, 10))
		default:
			fmt.Fprint(h, v)
		}
		_, _ = h.Write([]byte{'|'})
	}
	return h.Sum64()
}

// uuidFor builds a UUID whose last 12 hex digits carry n, with the given
// version nibble and other digits derived from a hash.
func uuidFor(site string, version int, n uint64, salt int) string {
	h := hash64(site, n, salt)
	return fmt.Sprintf("%08x-%04x-%x%03x-%x%03x-%012x",
		uint32(h>>32), uint16(h>>16), version, uint16(h)&0xfff, 8+(h>>60)%4, (h>>40)&0xfff, n&0xffffffffffff)
}

func uuidIndex(id string) (uint64, bool) {
	if len(id) != 36 {
		return 0, false
	}
	n, err := strconv.ParseUint(id[24:], 16, 64)
	return n, err == nil
}

const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

func ulidFor(n uint64, salt int) string {
	h := hash64("ulid", n, salt)
	var b strings.Builder
	b.WriteString("01J")
	for i := 0; i < 13; i++ {
		b.WriteByte(crockford[(h>>(5*i))&31])
	}
	tail := make([]byte, 10)
	for i := 9; i >= 0; i-- {
		tail[i] = crockford[n&31]
		n >>= 5
	}
	b.Write(tail)
	return b.String()
}

func ulidIndex(id string) (uint64, bool) {
	if len(id) != 26 {
		return 0, false
	}
	var n uint64
	for _, c := range strings.ToUpper(id[16:]) {
		i := strings.IndexRune(crockford, c)
		if i < 0 {
			return 0, false
		}
		n = n<<5 | uint64(i)
	}
	return n, true
}

var (
	adjectives = []string{"Silent", "Crimson", "Hidden", "Last", "Wandering", "Iron", "Golden", "Frozen", "Broken", "Eternal", "Quiet", "Burning", "Lonely", "Azure", "Wild"}
	nouns      = []string{"Blade", "Garden", "Witch", "Tower", "Ronin", "Star", "Alchemist", "Kingdom", "Dragon", "Librarian", "Moon", "Knight", "Harbor", "Comet", "Fox"}
	places     = []string{"Dawn", "the North", "the Abyss", "Spring", "the Old Capital", "Ash", "Tomorrow", "the Sea", "Glass", "Ten Thousand Years"}
)

// title is the Series' display title, deterministic from its index.
func title(site string, i int) string {
	h := hash64("title", site, i)
	return fmt.Sprintf("The %s %s of %s", adjectives[h%uint64(len(adjectives))],
		nouns[(h>>8)%uint64(len(nouns))], places[(h>>16)%uint64(len(places))])
}

func slugify(s string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(s) {
		if (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') {
			b.WriteRune(c)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

func base36(n int, width int) string {
	s := strconv.FormatInt(int64(n), 36)
	for len(s) < width {
		s = "0" + s
	}
	return s
}

func base26(n int) string {
	var b []byte
	for {
		b = append([]byte{byte('a' + n%26)}, b...)
		n /= 26
		if n == 0 {
			return string(b)
		}
	}
}

func unbase26(s string) (int, bool) {
	n := 0
	for _, c := range s {
		if c < 'a' || c > 'z' || n > 1<<40 {
			return 0, false
		}
		n = n*26 + int(c-'a')
	}
	return n, true
}

const hidOffset = 26 * 26 * 26 * 26 // five-letter hids

// seriesID is the Site-shaped id of Series i.
func seriesID(site string, i int) string {
	switch site {
	case MangaDex:
		return uuidFor(site, 4, uint64(i), 0)
	case Kagane:
		return "019c" + uuidFor(site, 7, uint64(i), 0)[4:]
	case WeebCentral:
		return ulidFor(uint64(i), 0)
	case MangaPill:
		return strconv.Itoa(i + 1)
	case Comix:
		return base26(i+hidOffset) + "-" + slugify(title(site, i))
	case Natomanga:
		return slugify(title(site, i)) + "-" + base36(i, 5)
	}
	return ""
}

// seriesIndex inverts seriesID, checking the whole id.
func seriesIndex(site, id string) (int, bool) {
	var i int
	switch site {
	case MangaDex, Kagane:
		n, ok := uuidIndex(strings.ToLower(id))
		if !ok || n > 1<<40 {
			return 0, false
		}
		i = int(n)
	case WeebCentral:
		n, ok := ulidIndex(id)
		if !ok || n > 1<<40 {
			return 0, false
		}
		i = int(n)
	case MangaPill:
		n, err := strconv.Atoi(id)
		if err != nil || n < 1 {
			return 0, false
		}
		i = n - 1
	case Comix:
		hid, _, _ := strings.Cut(id, "-")
		n, ok := unbase26(hid)
		if !ok || n < hidOffset {
			return 0, false
		}
		// The slug is cosmetic on Comix: any slug after the hid is accepted.
		return n - hidOffset, true
	case Natomanga:
		k := strings.LastIndexByte(id, '-')
		if k < 0 {
			return 0, false
		}
		n, err := strconv.ParseInt(id[k+1:], 36, 64)
		if err != nil || n < 0 || n > 1<<40 {
			return 0, false
		}
		i = int(n)
	default:
		return 0, false
	}
	if !strings.EqualFold(seriesID(site, i), id) {
		return 0, false
	}
	return i, true
}

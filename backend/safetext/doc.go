// Package safetext keeps text that comes from a Site or a person (titles,
// chapter titles, pause reasons, display names, URLs) harmless at both ends
// (docs/adr/0011-text-hygiene.md):
//
//   - on the way in, Line and URL drop control characters (U+0000–U+001F,
//     U+007F–U+009F), replace invalid UTF-8 and cut the text to MaxLine
//     characters (URLs to MaxURL), so the store never holds a terminal
//     escape sequence or a 4 MiB title;
//   - on the way out, Show makes any control character left (rows stored
//     before the rule, text from elsewhere) visible and inert for a
//     terminal, and EscapeJSON escapes U+007F–U+009F in JSON output, which
//     encoding/json leaves raw.
//
// It imports nothing of the project, so the store, the adapters, mbctl and
// the dashboard can all use it.
package safetext

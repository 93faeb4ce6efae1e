// Package tokenbudget holds what one Reader may cost the server, whichever
// of their tokens they use, shared by both HTTP faces (the JSON API and
// the cookie-session pages): at most MaxInFlight of their requests in the
// server at once, and a write budget of WriteBurst writes, then WriteRate
// a second. The budget keys on the Reader, not the token (issue 41 B5-1:
// every Discord login mints a token, so a per-token budget multiplied with
// each login). cmd builds one Budget and gives it to both faces, so a
// Reader cannot double what they may cost by using both.
// It imports nothing of the project.
package tokenbudget

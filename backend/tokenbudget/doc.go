// Package tokenbudget holds what one token may cost the server, shared by
// both HTTP faces (the JSON API and the cookie-session pages, whose
// session carries the token it was started with): at most MaxInFlight of
// its requests in the server at once, and a write budget of WriteBurst
// writes, then WriteRate a second. cmd builds one Budget and gives it to
// both faces, so a Reader cannot double what they may cost by using both.
// It imports nothing of the project.
package tokenbudget

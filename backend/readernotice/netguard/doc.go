// Package netguard keeps outlet URLs, which Readers type, from reaching
// the server's own network. Check refuses a URL that is not http(s) or
// whose host is, or resolves to, a loopback, private, link-local,
// unspecified or otherwise non-public address; Client returns an HTTP
// client that checks every address again at dial time (so a DNS answer
// that changes after the check, or a redirect, cannot reach one either),
// follows at most three redirects and bounds every request's time. Both
// take an allowPrivate switch for tests and home setups
// (NOTIFY_ALLOW_PRIVATE=1). It imports nothing of the project.
package netguard

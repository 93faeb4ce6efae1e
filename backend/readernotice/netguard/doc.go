// Package netguard keeps outlet URLs, which Readers type, from reaching
// the server's own network. Check refuses a URL that is not http(s) or
// whose host is, or resolves to, a loopback, private, link-local,
// unspecified or otherwise non-public address; Client returns an HTTP
// client that checks every address again at dial time (so a DNS answer
// that changes after the check, or a redirect, cannot reach one either),
// follows at most three redirects and bounds every request's time. Both
// let through only the private networks the Owner lists (AllowNets, from
// NOTIFY_ALLOW_NETS: a home setup's LAN, loopback for tests). A refusal is
// an *Error whose Reason a Reader reads. It imports nothing of the project.
package netguard

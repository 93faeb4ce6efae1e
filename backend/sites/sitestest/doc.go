// Package sitestest holds test doubles for code that reads Sites: a
// scripted Fetcher (a route that answers from a table of URLs) and a
// scripted Adapter with a Site helper, so Lane tests can build a registry
// whose reads end in whatever outcome a test needs, without any network.
package sitestest

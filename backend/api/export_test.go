package api

import "net/http"

// Routes, Route and WebPrefixes let the external route check
// (routes_test.go, package api_test, which can import backend/web) read
// the server's own route table.
func (s *Server) Routes() []string { return s.routes() }

// Route is the pattern that serves r.
func (s *Server) Route(r *http.Request) string { return s.route(r) }

// WebPrefixes are the paths MountWeb hands to the web pages.
var WebPrefixes = webPrefixes

// LimitReason is the sentence a Reader reads for a limit refusal.
func (s *Server) LimitReason(err error) string { return s.limitReason(err) }

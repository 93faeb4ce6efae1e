// Package admin is the Owner's read model and acts, below both HTTP faces
// (backend/api's JSON and backend/web's pages): the Lane views built from
// the store and the in-process Lanes, the background cache of the counts
// that are too dear to make per request (with a real Start/Stop), and the
// rules of Force, Pause and Resume. api, web, the dashboard's data and
// /metrics all read it, so the same data never goes through two doors.
package admin

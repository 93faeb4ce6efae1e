package api

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"mangabookmark/backend/phonesync"
	bp "mangabookmark/backend/phonesync/backuppb"
	"mangabookmark/backend/phonesync/merge"
)

// The SyncYomi protocol v2 (docs/api.md, "Phone sync";
// docs/sources.md ("Phone sync") §3; docs/adr/0029-phone-sync-v2-merges.md):
// the server merges, as the newest SyncYomi server does
// (syncyomi/syncyomi internal/http/syncv2.go at
// a98f59c2aa833fc796c50ffbcd060f9bf3da37cb) and TachiyomiSY's v2 client
// expects.

// maxDeletedCategories bounds X-Sync-Deleted-Categories: a phone deletes
// a few categories between two syncs, not thousands.
const maxDeletedCategories = 1000

// syncV2Routes registers the v2 routes behind the sync key.
func (s *Server) syncV2Routes() {
	s.mux.HandleFunc("GET /api/sync/v2/capabilities", s.syncGate(s.getSyncCapabilities))
	s.mux.HandleFunc("POST /api/sync/v2/merge", s.syncV2Gate(s.postSyncMerge))
	s.mux.HandleFunc("GET /api/sync/v2/snapshot", s.syncV2Gate(s.getSyncSnapshot))
}

// syncV2Gate is syncGate, and 503 while the server has no v2 engine.
func (s *Server) syncV2Gate(h http.HandlerFunc) http.HandlerFunc {
	return s.syncGate(func(w http.ResponseWriter, r *http.Request) {
		if s.SyncV2 == nil {
			s.Metrics.ObserveSync(r.Pattern, SyncError)
			writeError(w, http.StatusServiceUnavailable, "phone sync protocol v2 is not running on this server; the phone falls back to v1 once it stops answering")
			return
		}
		h(w, r)
	})
}

// getSyncCapabilities tells the client to speak v2; without a v2 engine
// it answers 404, which the client reads as "an older server: use v1"
// (any other status fails its sync).
func (s *Server) getSyncCapabilities(w http.ResponseWriter, r *http.Request) {
	if s.SyncV2 == nil {
		s.Metrics.ObserveSync(r.Pattern, SyncNotFound)
		writeError(w, http.StatusNotFound, "this server speaks SyncYomi protocol v1 only")
		return
	}
	s.Metrics.ObserveSync(r.Pattern, SyncOK)
	writeJSON(w, http.StatusOK, map[string]any{
		"version":  2,
		"merge":    "/api/sync/v2/merge",
		"snapshot": "/api/sync/v2/snapshot",
	})
}

// parseSyncCursor reads X-Sync-Cursor: absent is 0; anything but a
// non-negative integer is an error.
func parseSyncCursor(v string) (int64, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, true
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil && n >= 0
}

// parseDeletedCategories reads X-Sync-Deleted-Categories: comma-separated
// category uids, empty parts skipped.
func parseDeletedCategories(v string) ([]int64, bool) {
	var out []int64
	for _, p := range strings.Split(v, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		n, err := strconv.ParseInt(p, 10, 64)
		if err != nil || len(out) == maxDeletedCategories {
			return nil, false
		}
		out = append(out, n)
	}
	return out, true
}

func (s *Server) syncBad(w http.ResponseWriter, r *http.Request, msg string) {
	s.Metrics.ObserveSync(r.Pattern, SyncBadRequest)
	writeError(w, http.StatusBadRequest, msg)
}

func (s *Server) postSyncMerge(w http.ResponseWriter, r *http.Request) {
	id, _ := SyncIdentity(r.Context())
	dev, ok := phonesync.DeviceFrom(r.Header)
	if !ok || dev.ID == "" {
		s.syncBad(w, r, "missing or invalid X-Device-ID: send the phone's id, at most 128 bytes of text")
		return
	}
	cursor, ok := parseSyncCursor(r.Header.Get("X-Sync-Cursor"))
	if !ok {
		s.syncBad(w, r, "invalid X-Sync-Cursor: send the cursor of the last answer, a whole number of 0 or more")
		return
	}
	deleted, ok := parseDeletedCategories(r.Header.Get("X-Sync-Deleted-Categories"))
	if !ok {
		s.syncBad(w, r, "invalid X-Sync-Deleted-Categories: send category uids separated by commas, at most 1000")
		return
	}
	library, ok := s.readSyncUpload(w, r, id.ReaderID)
	if !ok {
		return
	}
	release := library.release
	defer release()
	msgs := s.SyncV2.Messages()
	backup, err := bp.Unmarshal(msgs.Backup, library.body)
	if err != nil {
		s.syncBad(w, r, "the body is not a backup: send the library as the app's backup protobuf")
		return
	}
	ans, err := s.SyncV2.Merge(r.Context(), merge.Request{Reader: id.ReaderID, Device: dev.ID, Cursor: cursor,
		Full: strings.EqualFold(strings.TrimSpace(r.Header.Get("X-Sync-Full")), "true"), Backup: backup,
		DeletedCategories: deleted, RawOnly: true})
	if err != nil {
		s.Metrics.ObserveSync(r.Pattern, SyncError)
		s.internalError(w, r, "phone sync merge", err)
		return
	}
	s.ingestMerged(r, id.ReaderID, library.body)
	out := ans.Raw
	s.PhoneSync.SeeDevice(r.Context(), id.ReaderID, dev)
	s.Metrics.ObserveSync(r.Pattern, SyncOK)
	h := w.Header()
	h.Set("X-Sync-Cursor", strconv.FormatInt(ans.Cursor, 10))
	h.Set("X-Sync-Changed", strconv.FormatBool(ans.Changed))
	if ans.FullRequested {
		h.Set("X-Sync-Full-Requested", "true")
	}
	h.Set("ETag", "seq="+strconv.FormatInt(ans.Cursor, 10))
	writeSyncBody(w, out)
}

// ingestMerged reads the upload in (reads, favourites, tracking rows), as
// a v1 upload is read, and records the result on the Reader's card (last
// upload, last result, the day's counts); a library the reader refuses
// was merged all the same, and is only logged.
func (s *Server) ingestMerged(r *http.Request, readerID int64, body []byte) {
	res, err := s.PhoneSync.IngestMerged(r.Context(), readerID, body)
	if err != nil {
		s.Log.Info("phone sync v2 upload merged but not read", "reader_id", readerID, "reason", err.Error())
		return
	}
	s.Log.Info("phone sync v2 merge", "reader_id", readerID, "manga", res.Manga, "matched", res.Matched,
		"progress_moved", res.ProgressMoved, "bookmarks_added", res.BookmarksAdded, "not_added", res.NotAdded)
}

// syncUpload is an upload read within the caps, holding the key's slot.
type syncUpload struct {
	body    []byte
	release func()
}

// readSyncUpload takes the key's upload slot and reads the body (raw or
// gzip, within the caps): the one home of an upload's refusals (429 with
// Retry-After, 415, 413, 400), for v1's PUT and v2's merge. On false the
// answer is written and the slot released.
func (s *Server) readSyncUpload(w http.ResponseWriter, r *http.Request, readerID int64) (syncUpload, bool) {
	release, err := s.PhoneSync.Begin(readerID)
	var paced *phonesync.PacedError
	switch {
	case errors.As(err, &paced):
		s.Metrics.ObserveSync(r.Pattern, SyncPaced)
		w.Header().Set("Retry-After", strconv.Itoa(paced.Seconds()))
		writeError(w, http.StatusTooManyRequests, "this sync key uploads faster than the server takes; the phone syncs again in a few seconds")
		return syncUpload{}, false
	case err != nil:
		s.Metrics.ObserveSync(r.Pattern, SyncBusy)
		writeBusy(w, "another upload of this sync key is still in progress; the phone syncs again once it is done")
		return syncUpload{}, false
	}
	gz, ok := uploadEncoding(r)
	if !ok {
		release()
		s.Metrics.ObserveSync(r.Pattern, SyncBadRequest)
		writeError(w, http.StatusUnsupportedMediaType, "send the library raw or with Content-Encoding: gzip; no other encoding is taken")
		return syncUpload{}, false
	}
	size := r.ContentLength // a raw body's size, known before it comes
	if gz {
		size = 0
	}
	body, err := phonesync.ReadBodySized(r.Body, gz, size, s.PhoneSync.MaxBody(), s.PhoneSync.MaxInflated())
	var tooBig *http.MaxBytesError
	switch {
	case errors.Is(err, phonesync.ErrTooLarge), errors.As(err, &tooBig):
		release()
		s.Metrics.ObserveSync(r.Pattern, SyncTooLarge)
		w.Header().Set("Connection", "close")
		writeError(w, http.StatusRequestEntityTooLarge, tooLargeSentence(err, s.PhoneSync.MaxBody()))
		return syncUpload{}, false
	case err != nil:
		release()
		s.syncBad(w, r, "the library could not be read: "+strings.TrimPrefix(err.Error(), "phonesync: "))
		return syncUpload{}, false
	}
	return syncUpload{body: body, release: release}, true
}

func (s *Server) getSyncSnapshot(w http.ResponseWriter, r *http.Request) {
	id, _ := SyncIdentity(r.Context())
	cursor, ok := parseSyncCursor(r.Header.Get("X-Sync-Cursor"))
	if !ok {
		s.syncBad(w, r, "invalid X-Sync-Cursor: send the cursor of the last answer, a whole number of 0 or more")
		return
	}
	snap, err := s.SyncV2.SnapshotRaw(r.Context(), id.ReaderID)
	switch {
	case errors.Is(err, merge.ErrNoData):
		s.Metrics.ObserveSync(r.Pattern, SyncNotFound)
		writeError(w, http.StatusNotFound, "nothing was merged for this sync key yet; the phone's first merge stores its library")
		return
	case err != nil:
		s.Metrics.ObserveSync(r.Pattern, SyncError)
		s.internalError(w, r, "phone sync snapshot", err)
		return
	}
	w.Header().Set("X-Sync-Cursor", strconv.FormatInt(snap.Cursor, 10))
	w.Header().Set("ETag", "seq="+strconv.FormatInt(snap.Cursor, 10))
	if cursor != 0 && cursor == snap.Cursor {
		s.Metrics.ObserveSync(r.Pattern, SyncNotModified)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	s.Metrics.ObserveSync(r.Pattern, SyncOK)
	writeSyncBody(w, snap.Raw)
}

// writeSyncBody writes a 200 with a raw protobuf Backup, not gzipped (the
// client decodes the bytes as they come).
func writeSyncBody(w http.ResponseWriter, out []byte) {
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Length", strconv.Itoa(len(out)))
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(out)
}

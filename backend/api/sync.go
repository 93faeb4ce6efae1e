package api

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"

	"mangabookmark/backend/phonesync"
	"mangabookmark/backend/store"
)

// The SyncYomi protocol v1 (docs/api.md, "Phone sync";
// docs/sources.md ("Phone sync") §2): what the stable TachiyomiSY and
// Komikku clients speak, answered as the newest SyncYomi server answers
// it. ETags are SyncYomi's, unquoted, compared whole.

// SyncUploadPaths are the sync routes that take a library as the body:
// the server-wide body limit gives them phonesync.DefaultMaxBody.
var SyncUploadPaths = map[string]bool{
	"PUT /api/sync/content":   true,
	"POST /api/sync/v2/merge": true,
}

// syncBodyLimit is the body limit of a sync upload route.
func syncBodyLimit(r *http.Request) (int64, bool) {
	if SyncUploadPaths[r.Method+" "+r.URL.Path] {
		return phonesync.DefaultMaxBody, true
	}
	return 0, false
}

// syncEventBytes bounds an event body: an event, a device name and id and
// a message.
const syncEventBytes = 16 << 10

// syncRoutes registers the v1 sync routes: a sync key in X-API-Token only.
func (s *Server) syncRoutes() {
	s.mux.HandleFunc("GET /api/sync/content", s.syncGate(s.getSyncContent))
	s.mux.HandleFunc("PUT /api/sync/content", s.syncGate(s.putSyncContent))
	s.mux.HandleFunc("POST /api/sync/event", s.syncGate(capBody(syncEventBytes, s.postSyncEvent)))
}

// syncGate is SyncKey behind phoneSync, counting refusals in /metrics.
func (s *Server) syncGate(h http.HandlerFunc) http.HandlerFunc {
	return s.phoneSync(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w}
		ran := false
		s.SyncKey(func(w http.ResponseWriter, r *http.Request) {
			ran = true
			h(w, r)
		})(rec, r)
		if !ran && rec.status == http.StatusUnauthorized {
			s.Metrics.ObserveSync(r.Pattern, SyncUnauthorized)
		}
	})
}

// SetDeprecation marks a v1 answer as the newest SyncYomi server does.
func SetDeprecation(w http.ResponseWriter) { w.Header().Set("Deprecation", "true") }

func (s *Server) getSyncContent(w http.ResponseWriter, r *http.Request) {
	id, _ := SyncIdentity(r.Context())
	SetDeprecation(w)
	s.seeSyncDevice(r, id.ReaderID)
	lib, err := s.PhoneSync.Get(r.Context(), id.ReaderID)
	switch {
	case errors.Is(err, phonesync.ErrNothingStored):
		s.Metrics.ObserveSync(r.Pattern, SyncNotFound)
		writeError(w, http.StatusNotFound, "nothing is stored for this sync key yet; the phone uploads its library next")
		return
	case err != nil:
		s.Metrics.ObserveSync(r.Pattern, SyncError)
		s.internalError(w, r, "phone sync get", err)
		return
	}
	w.Header().Set("ETag", lib.ETag)
	if inm := strings.TrimSpace(r.Header.Get("If-None-Match")); inm != "" && inm == lib.ETag && !lib.Changed {
		s.Metrics.ObserveSync(r.Pattern, SyncNotModified)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	s.Metrics.ObserveSync(r.Pattern, SyncOK)
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Length", strconv.Itoa(len(lib.Body)))
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(lib.Body)
}

func (s *Server) putSyncContent(w http.ResponseWriter, r *http.Request) {
	id, _ := SyncIdentity(r.Context())
	SetDeprecation(w)
	upload, ok := s.readSyncUpload(w, r, id.ReaderID)
	if !ok {
		return
	}
	defer upload.release()
	var ifMatch *string
	if v := strings.TrimSpace(r.Header.Get("If-Match")); v != "" {
		ifMatch = &v
	}
	res, err := s.PhoneSync.Put(r.Context(), id.ReaderID, upload.body, receivedBytes(r, len(upload.body)), ifMatch)
	switch {
	case errors.Is(err, store.ErrSyncConflict):
		s.Metrics.ObserveSync(r.Pattern, SyncConflict)
		writeError(w, http.StatusPreconditionFailed, "the stored library changed since this phone read it; it syncs again next time")
		return
	case err != nil:
		s.Metrics.ObserveSync(r.Pattern, SyncError)
		s.internalError(w, r, "phone sync put", err)
		return
	}
	s.seeSyncDevice(r, id.ReaderID)
	s.Metrics.ObserveSync(r.Pattern, SyncOK)
	w.Header().Set("ETag", res.ETag)
	w.WriteHeader(http.StatusOK)
}

// uploadEncoding says whether the body is gzipped (Content-Encoding:
// gzip) or raw (none, or identity); ok is false for any other encoding.
func uploadEncoding(r *http.Request) (gzipped, ok bool) {
	switch strings.ToLower(strings.TrimSpace(r.Header.Get("Content-Encoding"))) {
	case "", "identity":
		return false, true
	case "gzip", "x-gzip":
		return true, true
	}
	return false, false
}

// receivedBytes is the body's size as sent: its Content-Length, else the
// inflated size (a streamed raw body).
func receivedBytes(r *http.Request, inflated int) int64 {
	if r.ContentLength > 0 {
		return r.ContentLength
	}
	return int64(inflated)
}

// tooLargeSentence is the 413's sentence without the package prefix.
func tooLargeSentence(err error, maxBody int64) string {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return "the body is larger than " + byteSize(maxBody) + ", the most an upload may send"
	}
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		msg = msg[i+2:]
	}
	return msg
}

// seeSyncDevice records the device a request names (X-Device-ID and
// X-Device-Name; a stable client sends neither and is recorded as the
// device with no id). An id past the bound is not recorded.
func (s *Server) seeSyncDevice(r *http.Request, readerID int64) {
	if d, ok := phonesync.DeviceFrom(r.Header); ok {
		s.PhoneSync.SeeDevice(r.Context(), readerID, d)
	}
}

// syncEvents are the events a SyncYomi client posts.
var syncEvents = map[string]bool{"SYNC_STARTED": true, "SYNC_SUCCESS": true, "SYNC_FAILED": true, "SYNC_ERROR": true, "SYNC_CANCELLED": true}

func (s *Server) postSyncEvent(w http.ResponseWriter, r *http.Request) {
	id, _ := SyncIdentity(r.Context())
	SetDeprecation(w)
	var body struct {
		Event      string `json:"event"`
		DeviceName string `json:"device_name"`
		DeviceID   string `json:"device_id"`
		Message    string `json:"message"`
	}
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		s.Metrics.ObserveSync(r.Pattern, SyncTooLarge)
		writeError(w, http.StatusRequestEntityTooLarge, "the event is larger than "+byteSize(syncEventBytes))
		return
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		s.Metrics.ObserveSync(r.Pattern, SyncBadRequest)
		writeError(w, http.StatusBadRequest, "invalid JSON body")
		return
	}
	switch {
	case body.Event == "":
		s.Metrics.ObserveSync(r.Pattern, SyncBadRequest)
		writeError(w, http.StatusBadRequest, "event is required")
		return
	case !syncEvents[body.Event]:
		s.Metrics.ObserveSync(r.Pattern, SyncBadRequest)
		writeError(w, http.StatusBadRequest, "invalid sync event")
		return
	}
	h := http.Header{}
	h.Set("X-Device-ID", firstNonEmpty(body.DeviceID, r.Header.Get("X-Device-ID")))
	h.Set("X-Device-Name", firstNonEmpty(body.DeviceName, r.Header.Get("X-Device-Name")))
	if d, ok := phonesync.DeviceFrom(h); ok {
		s.PhoneSync.SeeDevice(r.Context(), id.ReaderID, d)
	}
	s.Metrics.ObserveSync(r.Pattern, SyncOK)
	w.WriteHeader(http.StatusNoContent)
}

func firstNonEmpty(a, b string) string {
	if strings.TrimSpace(a) != "" {
		return a
	}
	return b
}

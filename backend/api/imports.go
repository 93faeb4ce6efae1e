package api

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"mangabookmark/backend/imports"
	"mangabookmark/backend/store"
	"mangabookmark/client"
)

// importRoutes registers the Reader's imports and export
// (docs/adr/0017-imports-and-exports.md). POST /api/imports alone takes
// bodies up to imports.MaxBodyBytes (ServeHTTP).
func (s *Server) importRoutes() {
	s.mux.HandleFunc("POST /api/imports", s.reader(s.limitWrites(s.postImport)))
	s.mux.HandleFunc("GET /api/imports", s.reader(s.listImports))
	s.mux.HandleFunc("GET /api/imports/{id}", s.reader(s.getImport))
	s.mux.HandleFunc("GET /api/export", s.reader(s.getExport))
}

// bodyLimit is the largest body a request may send: 32 MiB for an import,
// 1 MiB for everything else.
func bodyLimit(r *http.Request) int64 {
	if r.Method == http.MethodPost && (r.URL.Path == "/api/imports" || r.URL.Path == "/import") {
		return imports.MaxBodyBytes
	}
	if n, ok := syncBodyLimit(r); ok {
		return n
	}
	return MaxBodyBytes
}

// unsupportedPage is how many unsupported items one answer holds at most
// (the store keeps store.MaxStoredProblems): GET /api/imports/{id}
// pages through them with offset and limit.
const unsupportedPage = 50

// ImportJSON is an import in its wire form, with the unsupported items
// the job carries (none from a listing).
func ImportJSON(j store.ImportJob) client.Import {
	out := client.Import{ID: j.ID, Kind: j.Kind, State: j.State, Total: j.Total, Added: j.Added, Already: j.Already,
		ProgressApplied: j.ProgressApplied, Waiting: j.Waiting, NextAt: j.NextAt, CreatedAt: j.CreatedAt.UTC(),
		FinishedAt: j.FinishedAt, UnsupportedCount: j.UnsupportedCount,
		Unsupported: make([]client.ImportUnsupported, 0, min(len(j.Unsupported), unsupportedPage))}
	for _, p := range j.Unsupported[:min(len(j.Unsupported), unsupportedPage)] {
		out.Unsupported = append(out.Unsupported, client.ImportUnsupported{Item: p.Item, Reason: p.Reason})
	}
	return out
}

// postImport decodes the whole body before anything is written: a file that
// cannot be read is 400/413 with the reason and leaves nothing behind.
func (s *Server) postImport(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	if s.Imports == nil {
		writeError(w, http.StatusServiceUnavailable, "imports are not running on this server")
		return
	}
	// One upload of a Reader's is read at a time (imports.BeginUpload),
	// shared with the import page: a token's 8 requests in flight would
	// otherwise hold 8 bodies of 32 MiB.
	release, ok := s.Imports.BeginUpload(id.ReaderID)
	if !ok {
		writeBusy(w, "another import of yours is still being read; wait for it to finish and send this one again")
		return
	}
	defer release()
	body, err := io.ReadAll(r.Body)
	var maxErr *http.MaxBytesError
	if errors.As(err, &maxErr) {
		writeError(w, http.StatusRequestEntityTooLarge, "the import is larger than 32 MiB, the most one import may send; split it")
		return
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, "the body could not be read")
		return
	}
	parsed, err := imports.Decode(r.Header.Get("Content-Type"), body, s.Sites)
	if err != nil {
		writeError(w, importStatus(err), imports.Reason(err))
		return
	}
	job, err := s.Imports.Submit(r.Context(), id.ReaderID, parsed)
	if errors.Is(err, imports.ErrTooMany) {
		writeError(w, http.StatusTooManyRequests, imports.Reason(err))
		return
	}
	if job.ID == 0 && err != nil {
		s.internalError(w, r, "submit import", err)
		return
	}
	if err != nil { // recorded; the import service takes it up again
		s.Log.Warn("import not applied yet", "import_id", job.ID, "error", err)
	}
	writeJSON(w, http.StatusAccepted, ImportJSON(job))
}

// getImport answers one import with one page of its unsupported items:
// ?offset=N (default 0) and ?limit=M (default and at most 50).
func (s *Server) getImport(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	n, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || n <= 0 {
		writeError(w, http.StatusNotFound, "you have no import with that id")
		return
	}
	offset := 0
	if v := r.URL.Query().Get("offset"); v != "" {
		if offset, err = strconv.Atoi(v); err != nil || offset < 0 {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("offset=%q must be a whole number, 0 or more", v))
			return
		}
	}
	limit, ok := adminLimit(w, r, unsupportedPage, unsupportedPage)
	if !ok {
		return
	}
	job, err := s.Store.GetImport(r.Context(), id.ReaderID, n, false)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, "you have no import with that id")
		return
	}
	if err != nil {
		s.internalError(w, r, "get import", err)
		return
	}
	job.Unsupported = job.Unsupported[min(offset, len(job.Unsupported)):]
	job.Unsupported = job.Unsupported[:min(limit, len(job.Unsupported))]
	writeJSON(w, http.StatusOK, ImportJSON(job))
}

// listImports answers the Reader's latest imports without their items
// (unsupported_count says how many; GET /api/imports/{id} has them), so
// the answer is a few hundred bytes an import whatever they held.
func (s *Server) listImports(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	list, err := s.Store.ListImports(r.Context(), id.ReaderID)
	if err != nil {
		s.internalError(w, r, "list imports", err)
		return
	}
	out := make([]client.Import, 0, len(list))
	for _, j := range list {
		out = append(out, ImportJSON(j))
	}
	writeJSON(w, http.StatusOK, map[string]any{"imports": out})
}

// getExport writes every bookmark of the Reader as JSON or CSV.
func (s *Server) getExport(w http.ResponseWriter, r *http.Request) {
	id, _ := identityFrom(r.Context())
	format := r.URL.Query().Get("format")
	if format == "" {
		format = "json"
	}
	if format != "json" && format != "csv" {
		writeError(w, http.StatusBadRequest, `format must be "json" or "csv"`)
		return
	}
	bom, ok := imports.WantsBOM(r.URL.Query().Get("bom"))
	if !ok {
		writeError(w, http.StatusBadRequest, imports.BOMSentence)
		return
	}
	exp, err := imports.ExportOf(r.Context(), s.Store, id.ReaderID)
	if err != nil {
		s.internalError(w, r, "export", err)
		return
	}
	imports.ServeExport(w, exp, format, bom)
}

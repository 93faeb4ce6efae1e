package web

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"mangabookmark/backend/imports"
	"mangabookmark/backend/store"
)

// importView is the import page (a form and the recent imports) or one
// import's page.
type importView struct {
	Recent  []store.ImportJob
	Job     *store.ImportJob
	Done    int // entries decided (added or already), for the progress bar
	Added   []store.ImportEntry
	Already []store.ImportEntry
	Waiting []store.ImportEntry
	Refresh int // seconds between refreshes while the import runs or waits; 0: none
	// Limits are the Reader limits in force: the pages name the numbers
	// that hold waiting entries (the hourly allowance of new Series, and
	// the cap on bookmarks of Series never read, when set) from them.
	Limits store.ReaderLimits
}

// importRoutes registers the import and export pages.
func (h *Handler) importRoutes() {
	// "Add a Series" runs a urls import: it takes the Reader's one upload
	// slot like the import page, and its form is capped to addBodyBytes.
	h.handle("POST /library/add", h.spend(h.oneUpload(h.capForm(addBodyBytes, h.checkCSRF(h.addSeries)))))
	h.handle("GET /import", h.session(h.importPage))
	// The session comes first: a stranger's upload is refused before any
	// of its body is read; then the token's write budget, then one upload
	// of the Reader's at a time.
	h.handle("POST /import", h.spend(h.oneUpload(h.bounded(h.checkCSRF(h.postImport)))))
	h.handle("GET /import/{id}", h.session(h.importJobPage))
	h.handle("GET /export.json", h.session(h.export("json")))
	h.handle("GET /export.csv", h.session(h.export("csv")))
}

// oneUpload lets one upload of the Reader's in at a time, the same slot
// POST /api/imports takes (imports.BeginUpload): a second is 429 before
// its body is read.
func (h *Handler) oneUpload(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if h.Imports == nil {
			h.errorPage(w, r, http.StatusServiceUnavailable, "Imports are off", "This server does not run imports right now.")
			return
		}
		release, ok := h.Imports.BeginUpload(viewerFrom(r.Context()).ReaderID)
		if !ok {
			w.Header().Set("Retry-After", "1")
			w.Header().Set("Connection", "close") // the unread body is not drained
			h.errorPage(w, r, http.StatusTooManyRequests, "Another import is being read",
				"One of your imports is still being read. Wait until it has finished, then send this one again.")
			return
		}
		defer release()
		next(w, r)
	}
}

// bounded reads the multipart form before the csrf check, so an upload
// past the 32 MiB the server takes is told so (413), not "form expired".
// It runs inside session, so only a Reader's upload is ever parsed.
func (h *Handler) bounded(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var maxErr *http.MaxBytesError
		if err := r.ParseMultipartForm(8 << 20); errors.As(err, &maxErr) {
			h.errorPage(w, r, http.StatusRequestEntityTooLarge, "That file cannot be imported", "The upload is larger than 32 MiB, the most one import may send; split it.")
			return
		}
		next(w, r)
	}
}

// addSeries is the library's "Add a Series" field: every line through the
// import job model (one urls import), then back to the library, which shows
// each line's answer.
func (h *Handler) addSeries(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	p, err := imports.FromLines(r.PostFormValue("urls"))
	if err != nil {
		h.importRefused(w, r, "Nothing to add", err)
		return
	}
	job, ok := h.submit(w, r, v.ReaderID, p)
	if !ok {
		return
	}
	// Back to the library as it was (filter, sort, page), with the answers.
	u, err := url.Parse(readerBack(r))
	if err != nil || u.Path != "/" {
		u = &url.URL{Path: "/"}
	}
	q := u.Query()
	q.Set("added", strconv.FormatInt(job.ID, 10))
	u.RawQuery = q.Encode()
	h.setFlash(w, r, importSentence(job), "")
	seeOther(w, r, u.String())
}

// submit runs an import for the page; false when it answered an error.
func (h *Handler) submit(w http.ResponseWriter, r *http.Request, readerID int64, p *imports.Parsed) (store.ImportJob, bool) {
	if h.Imports == nil {
		h.errorPage(w, r, http.StatusServiceUnavailable, "Imports are off", "This server does not run imports right now.")
		return store.ImportJob{}, false
	}
	job, err := h.Imports.Submit(r.Context(), readerID, p)
	if errors.Is(err, imports.ErrTooMany) {
		h.errorPage(w, r, http.StatusTooManyRequests, "Too many imports waiting", imports.Reason(err))
		return store.ImportJob{}, false
	}
	if job.ID == 0 && err != nil {
		h.unavailable(w, r, err)
		return store.ImportJob{}, false
	}
	if err != nil {
		h.Log.Warn("import not applied yet", "import_id", job.ID, "error", err)
	}
	return job, true
}

func (h *Handler) importPage(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	recent, err := h.Store.ListImports(r.Context(), v.ReaderID)
	if err != nil {
		h.unavailable(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "import", page{Title: "Import", V: v, Imp: &importView{Recent: recent, Limits: h.Store.ReaderLimits()}})
}

// postImport takes a file (multipart "file") or a list of URLs ("urls").
// The whole file is read and decoded before anything is written.
func (h *Handler) postImport(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	p, ok := h.parseUpload(w, r)
	if !ok {
		return
	}
	job, ok := h.submit(w, r, v.ReaderID, p)
	if !ok {
		return
	}
	h.setFlash(w, r, importSentence(job), "")
	seeOther(w, r, "/import/"+strconv.FormatInt(job.ID, 10))
}

// importSentence says in words what an import just did, for the flash:
// its counts when it is decided, else that it goes on.
func importSentence(j store.ImportJob) string {
	decided := j.Added + j.Already + j.UnsupportedCount
	if j.State == "running" || (j.Total > 0 && decided+j.Waiting < j.Total) {
		return fmt.Sprintf("Import started: %s read; this page counts them as they are added.", countOf(j.Total, "entry"))
	}
	s := fmt.Sprintf("Imported: %d added, %d already in your library", j.Added, j.Already)
	if j.ProgressApplied > 0 {
		s += fmt.Sprintf(", Progress moved forward on %d", j.ProgressApplied)
	}
	if j.Waiting > 0 {
		s += fmt.Sprintf(", %d waiting for your allowance", j.Waiting)
	}
	if j.UnsupportedCount > 0 {
		s += fmt.Sprintf(", %d not imported (see below)", j.UnsupportedCount)
	}
	return s + "."
}

// parseUpload decodes the form's file or URLs; false when it answered
// the refusal, one sentence from the decoder's reason (imports.Reason),
// never an error's text.
func (h *Handler) parseUpload(w http.ResponseWriter, r *http.Request) (*imports.Parsed, bool) {
	const refused = "That file cannot be imported"
	var p *imports.Parsed
	var err error
	f, hdr, ferr := r.FormFile("file")
	switch {
	case ferr == nil:
		defer f.Close()
		body, rerr := io.ReadAll(io.LimitReader(f, imports.MaxBodyBytes+1))
		var maxErr *http.MaxBytesError
		switch {
		case errors.As(rerr, &maxErr), rerr == nil && len(body) > imports.MaxBodyBytes:
			h.errorPage(w, r, http.StatusRequestEntityTooLarge, refused, "The upload is larger than 32 MiB, the most one import may send; split it.")
			return nil, false
		case rerr != nil:
			h.Log.Warn("import upload not read", "error", rerr)
			h.errorPage(w, r, http.StatusBadRequest, refused, "The uploaded file could not be read; upload it again.")
			return nil, false
		}
		head := body[:min(len(body), 512)]
		p, err = imports.Decode(imports.TypeForFile(hdr.Filename, head), body, h.Sites)
	case strings.TrimSpace(r.PostFormValue("urls")) != "":
		p, err = imports.FromLines(r.PostFormValue("urls"))
	default:
		h.errorPage(w, r, http.StatusBadRequest, refused, "Choose a file to upload, or paste URLs, one a line.")
		return nil, false
	}
	if err != nil {
		h.importRefused(w, r, refused, err)
		return nil, false
	}
	return p, true
}

// job loads one of the Reader's imports with its entries, or answers 404.
func (h *Handler) job(w http.ResponseWriter, r *http.Request, raw string) (*store.ImportJob, bool) {
	v := viewerFrom(r.Context())
	id, err := strconv.ParseInt(raw, 10, 64)
	if err == nil && id > 0 {
		var j store.ImportJob
		j, err = h.Store.GetImport(r.Context(), v.ReaderID, id, true)
		if err == nil {
			return &j, true
		}
	} else {
		err = store.ErrNotFound
	}
	if errors.Is(err, store.ErrNotFound) {
		h.errorPage(w, r, http.StatusNotFound, "No such import", "You have no import at this address.")
	} else {
		h.unavailable(w, r, err)
	}
	return nil, false
}

// viewOf sorts a job's entries for its page.
func viewOf(j *store.ImportJob, now time.Time, limits store.ReaderLimits) *importView {
	iv := &importView{Job: j, Limits: limits}
	for _, e := range j.Entries {
		switch e.State {
		case store.EntryAdded:
			iv.Added = append(iv.Added, e)
		case store.EntryAlready:
			iv.Already = append(iv.Already, e)
		default:
			iv.Waiting = append(iv.Waiting, e)
		}
	}
	iv.Done = j.Total - j.Waiting
	switch {
	case j.State == store.ImportRunning:
		iv.Refresh, iv.Done = 2, j.Added+j.Already+j.UnsupportedCount
	case j.State == store.ImportWaiting && j.NextAt != nil:
		// Soon after the allowance refills, at most a minute apart.
		iv.Refresh = int(min(max(j.NextAt.Sub(now)+time.Second, 2*time.Second), time.Minute) / time.Second)
	}
	return iv
}

func (h *Handler) importJobPage(w http.ResponseWriter, r *http.Request) {
	j, ok := h.job(w, r, r.PathValue("id"))
	if !ok {
		return
	}
	iv := viewOf(j, h.Now(), h.Store.ReaderLimits())
	if iv.Refresh > 0 { // the progress bar updates while the import runs or waits
		w.Header().Set("Refresh", strconv.Itoa(iv.Refresh))
	}
	h.render(w, r, http.StatusOK, "import_job", page{Title: "Import", V: viewerFrom(r.Context()), Imp: iv})
}

// addedView is what the library shows after "Add a Series": the answer to
// each line.
func (h *Handler) addedView(r *http.Request) *importView {
	raw := r.URL.Query().Get("added")
	if raw == "" {
		return nil
	}
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id <= 0 {
		return nil
	}
	j, err := h.Store.GetImport(r.Context(), viewerFrom(r.Context()).ReaderID, id, true)
	if err != nil {
		return nil
	}
	return viewOf(&j, h.Now(), h.Store.ReaderLimits())
}

func (h *Handler) export(format string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		bom, ok := imports.WantsBOM(r.URL.Query().Get("bom"))
		if !ok {
			h.errorPage(w, r, http.StatusBadRequest, "Export refused", "The link asks for the export with "+imports.BOMSentence+".")
			return
		}
		exp, err := imports.ExportOf(r.Context(), h.Store, viewerFrom(r.Context()).ReaderID)
		if err != nil {
			h.unavailable(w, r, err)
			return
		}
		imports.ServeExport(w, exp, format, bom)
	}
}

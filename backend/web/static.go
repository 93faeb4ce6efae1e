package web

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
)

// staticTypes are the content types of the static files, by extension
// (fixed here rather than read from the system's MIME table).
var staticTypes = map[string]string{
	".css": "text/css; charset=utf-8",
	".js":  "text/javascript; charset=utf-8",
	".png": "image/png",
}

// asset is one embedded static file under its fingerprinted name.
type asset struct {
	body  []byte
	ctype string
}

// assets maps each fingerprinted name ("style.3f9a….css") to its file,
// and names maps the plain name ("style.css") to the fingerprinted one.
// The fingerprint is the content's SHA-256 (first 12 hex digits), so an
// upgrade that changes a file changes its URL and no browser shows
// yesterday's CSS; the file is then served immutable.
var assets, names = loadAssets()

func loadAssets() (map[string]asset, map[string]string) {
	list, err := fs.Glob(files, "static/*")
	if err != nil || len(list) == 0 {
		panic(fmt.Sprintf("web: no static files (%v)", err))
	}
	byHash, byName := map[string]asset{}, map[string]string{}
	for _, f := range list {
		body, err := files.ReadFile(f)
		if err != nil {
			panic(err)
		}
		base := path.Base(f)
		ext := path.Ext(base)
		sum := sha256.Sum256(body)
		hashed := strings.TrimSuffix(base, ext) + "." + hex.EncodeToString(sum[:])[:12] + ext
		ctype, ok := staticTypes[ext]
		if !ok {
			panic(fmt.Sprintf("web: static file %s has no content type in staticTypes", f))
		}
		byHash[hashed] = asset{body: body, ctype: ctype}
		byName[base] = hashed
	}
	return byHash, byName
}

// staticPath is the URL of a static file by its plain name, for the
// templates ({{static "style.css"}}). An unknown name panics at the first
// render, which every page test reaches.
func staticPath(name string) string {
	hashed, ok := names[name]
	if !ok {
		panic(fmt.Sprintf("web: no static file %q", name))
	}
	return "/web/" + hashed
}

// serveStatic answers GET /web/{file}: a fingerprinted name with its file,
// cached for a year and immutable; any other name (a plain or an old
// fingerprint) 404, so a stale name never gets today's or yesterday's file.
func serveStatic(w http.ResponseWriter, r *http.Request) {
	a, ok := assets[r.PathValue("file")]
	if !ok {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", a.ctype)
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("Content-Length", strconv.Itoa(len(a.body)))
	if r.Method != http.MethodHead {
		_, _ = w.Write(a.body)
	}
}

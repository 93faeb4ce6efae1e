package web

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"mangabookmark/backend/readernotice"
	"mangabookmark/client"
)

// Web Push and the installable web app (docs/adr/0016-reader-notices.md,
// "Web Push"): the manifest, the service worker, and the session forms
// the notices page's "Enable notifications" button posts to. The icons
// and push.js are static files (static/), served fingerprinted.
//
// The service worker sits at /sw.js so its scope is the whole site; it is
// served with no-cache so a new version reaches browsers on their next
// visit. The subscribe and unsubscribe forms are cookie-session posts with
// the page's csrf field, like every other form here; they answer JSON, as
// only the button's script calls them.
func (h *Handler) pushRoutes() {
	h.handle("GET /manifest.webmanifest", serveManifest)
	h.handle("GET /sw.js", serveWorker)
	h.handle("POST /notices/push/subscribe", h.post(h.pushSubscribe))
	h.handle("POST /notices/push/unsubscribe", h.post(h.pushUnsubscribe))
}

//go:embed worker/sw.js
var workerSource string

// workerJS is the service worker with the notification icon's
// fingerprinted path in place of __ICON__.
var workerJS = []byte(strings.ReplaceAll(workerSource, "__ICON__", staticPath("icon-192.png")))

// serveWorker serves the service worker, always revalidated.
func serveWorker(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(workerJS)
}

// manifestIcon is one icon of the web app manifest.
type manifestIcon struct {
	Src     string `json:"src"`
	Sizes   string `json:"sizes"`
	Type    string `json:"type"`
	Purpose string `json:"purpose"`
}

// manifestJSON is the web app manifest: enough for a browser to install
// the library as an app (name, start_url, display, 192 and 512 pixel
// icons; the icons fill the maskable safe zone).
var manifestJSON = func() []byte {
	icon := func(name, size, purpose string) manifestIcon {
		return manifestIcon{Src: staticPath(name), Sizes: size, Type: "image/png", Purpose: purpose}
	}
	b, err := json.MarshalIndent(map[string]any{
		"name":             "mangabookmark",
		"short_name":       "Manga",
		"description":      "Your manga library, and a notification when a bookmarked Series has a New Chapter.",
		"id":               "/",
		"start_url":        "/",
		"scope":            "/",
		"display":          "standalone",
		"background_color": "#141311",
		"theme_color":      "#1f1d1a",
		"icons": []manifestIcon{icon("icon-192.png", "192x192", "any"), icon("icon-512.png", "512x512", "any"),
			icon("icon-512.png", "512x512", "maskable")},
	}, "", "  ")
	if err != nil {
		panic(err)
	}
	return b
}()

func serveManifest(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/manifest+json")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	_, _ = w.Write(manifestJSON)
}

// writeJSON answers the button's script.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func jsonError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

// pushSubscribe stores the browser subscription in the form field
// subscription (the JSON of PushSubscription.toJSON(), as POST
// /api/push/subscriptions takes it) for the session's Reader.
func (h *Handler) pushSubscribe(w http.ResponseWriter, r *http.Request) {
	if h.ReaderNotices == nil {
		jsonError(w, http.StatusServiceUnavailable, "This server sends no notifications; ask the Owner.")
		return
	}
	var sub client.PushSubscription
	dec := json.NewDecoder(strings.NewReader(r.PostFormValue("subscription")))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sub); err != nil {
		jsonError(w, http.StatusBadRequest, "The browser's subscription could not be read; reload the page and try again.")
		return
	}
	v := viewerFrom(r.Context())
	err := h.ReaderNotices.Subscribe(r.Context(), v.ReaderID, readernotice.PushSubscription{Endpoint: sub.Endpoint, P256dh: sub.Keys.P256dh, Auth: sub.Keys.Auth})
	var fe *readernotice.FieldError
	if errors.As(err, &fe) {
		jsonError(w, http.StatusBadRequest, fmt.Sprintf("The subscription was refused (%s): %s.", fe.Field, strings.TrimSuffix(fe.Msg, ".")))
		return
	}
	var taken *readernotice.EndpointTakenError
	if errors.As(err, &taken) {
		jsonError(w, http.StatusConflict, "The subscription was refused: "+taken.Reason()+".")
		return
	}
	if err != nil {
		h.Log.Warn("push subscribe failed", "reader_id", v.ReaderID, "error", err)
		jsonError(w, http.StatusServiceUnavailable, "The server could not save the subscription right now; try again shortly.")
		return
	}
	writeJSON(w, http.StatusCreated, client.PushUnsubscribe{Endpoint: sub.Endpoint})
}

// pushUnsubscribe removes the session's Reader's subscription at the form
// field endpoint.
func (h *Handler) pushUnsubscribe(w http.ResponseWriter, r *http.Request) {
	if h.ReaderNotices == nil {
		jsonError(w, http.StatusServiceUnavailable, "This server sends no notifications; ask the Owner.")
		return
	}
	endpoint := r.PostFormValue("endpoint")
	if endpoint == "" {
		jsonError(w, http.StatusBadRequest, "No subscription was named; reload the page and try again.")
		return
	}
	v := viewerFrom(r.Context())
	if _, err := h.ReaderNotices.Unsubscribe(r.Context(), v.ReaderID, endpoint); err != nil {
		h.Log.Warn("push unsubscribe failed", "reader_id", v.ReaderID, "error", err)
		jsonError(w, http.StatusServiceUnavailable, "The server could not remove the subscription right now; try again shortly.")
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

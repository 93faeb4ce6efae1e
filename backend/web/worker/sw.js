// The service worker of the mangabookmark pages (served at /sw.js, scope
// the whole site). It shows each Web Push message the server sends, a
// JSON {"title","body","url"}, as a notification, and opens its url on
// click. It caches nothing: the pages are live data.
"use strict";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (e) { e.waitUntil(self.clients.claim()); });

// safeURL keeps a click to http(s) pages; anything else opens the library.
function safeURL(u) {
  try {
    var x = new URL(String(u), self.location.origin);
    if (x.protocol === "https:" || x.protocol === "http:") return x.href;
  } catch (err) { /* fall through */ }
  return self.location.origin + "/";
}

function text(v, fallback) { return typeof v === "string" && v !== "" ? v : fallback; }

self.addEventListener("push", function (e) {
  var m = {};
  try { m = e.data ? e.data.json() : {}; } catch (err) { m = {}; }
  if (m === null || typeof m !== "object") m = {};
  e.waitUntil(self.registration.showNotification(text(m.title, "mangabookmark"), {
    body: text(m.body, ""),
    icon: "__ICON__",
    badge: "__ICON__",
    tag: "new-chapters",
    renotify: true,
    data: { url: safeURL(m.url) }
  }));
});

self.addEventListener("notificationclick", function (e) {
  e.notification.close();
  var url = safeURL(e.notification.data && e.notification.data.url);
  e.waitUntil(self.clients.openWindow(url));
});

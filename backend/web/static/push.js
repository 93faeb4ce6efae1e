// Web Push: registers the service worker (which also makes the pages
// installable as a web app) and drives the "Enable notifications" button
// of #push. The button stays hidden where the browser cannot do push or
// the server sends no notifications; without script nothing changes.
"use strict";
(function () {
  if (!("serviceWorker" in navigator)) return;
  var ready = navigator.serviceWorker.register("/sw.js", { scope: "/" });
  var box = document.getElementById("push");
  if (!box) { ready.catch(function () {}); return; }
  var on = document.getElementById("push-enable");
  var off = document.getElementById("push-disable");
  var status = document.getElementById("push-status");
  function say(t) { status.textContent = t; }
  function showOn(subscribed) {
    on.hidden = subscribed; off.hidden = !subscribed; on.disabled = false; off.disabled = false;
    say(subscribed ? "Notifications are on in this browser." : "");
  }

  // post sends one of the session forms (with the page's csrf field) and
  // turns a refusal into its message.
  function post(path, fields) {
    var body = new URLSearchParams();
    body.set("csrf", box.dataset.csrf);
    Object.keys(fields).forEach(function (k) { body.set(k, fields[k]); });
    return fetch(path, { method: "POST", body: body, credentials: "same-origin" }).then(function (r) {
      if (r.ok) return r;
      return r.json().then(function (j) { throw new Error(j.error); },
        function () { throw new Error("The server refused (HTTP " + r.status + "); reload the page and try again."); });
    });
  }

  // save hands a PushSubscription (or its JSON) to the server.
  function save(sub) {
    var j = typeof sub.toJSON === "function" ? sub.toJSON() : sub;
    return post("/notices/push/subscribe", { subscription: JSON.stringify(j) });
  }
  window.mangabookmarkPush = { save: save };

  // within rejects p when it takes longer than ms: a browser without a
  // push service (Chromium built without Google's keys, a network that
  // blocks it) may never answer subscribe.
  function within(p, ms, msg) {
    return Promise.race([p, new Promise(function (_, no) { setTimeout(function () { no(new Error(msg)); }, ms); })]);
  }

  function keyBytes(b64) {
    var s = atob(b64.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((b64.length + 3) % 4));
    var out = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  }

  function sameKey(sub, key) {
    var k = sub.options && sub.options.applicationServerKey;
    if (!k) return true;
    var a = new Uint8Array(k);
    if (a.length !== key.length) return false;
    for (var i = 0; i < a.length; i++) if (a[i] !== key[i]) return false;
    return true;
  }

  var serverKey = fetch("/push/key", { credentials: "same-origin" }).then(function (r) {
    if (!r.ok) throw new Error("no push");
    return r.json();
  }).then(function (j) { return keyBytes(j.vapid_public_key); });

  if (!("PushManager" in window) || !("Notification" in window)) return;
  Promise.all([ready, serverKey]).then(function () {
    box.hidden = false;
    if (Notification.permission === "denied") {
      on.disabled = true;
      say("Notifications are blocked for this site; allow them in the browser's site settings, then reload.");
      return;
    }
    return navigator.serviceWorker.ready.then(function (reg) { return reg.pushManager.getSubscription(); })
      .then(function (sub) { showOn(!!sub); });
  }).catch(function () { /* no push here: the button stays hidden */ });

  on.addEventListener("click", function () {
    on.disabled = true;
    say("Asking the browser…");
    Notification.requestPermission().then(function (p) {
      if (p !== "granted") throw new Error("Notifications were not allowed; allow them in the browser's site settings and try again.");
      return Promise.all([navigator.serviceWorker.ready, serverKey]);
    }).then(function (r) {
      var reg = r[0], key = r[1];
      return reg.pushManager.getSubscription().then(function (old) {
        if (old && sameKey(old, key)) return old;
        var gone = old ? old.unsubscribe() : Promise.resolve();
        return gone.then(function () {
          return within(reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }), 15000,
            "The browser's push service did not answer; this browser may not support notifications. Try again later or use another browser.");
        });
      });
    }).then(save).then(function () { showOn(true); }, function (e) {
      on.disabled = false;
      say(e && e.message ? "Notifications could not be turned on: " + e.message : String(e));
    });
  });

  off.addEventListener("click", function () {
    off.disabled = true;
    navigator.serviceWorker.ready.then(function (reg) { return reg.pushManager.getSubscription(); })
      .then(function (sub) {
        if (!sub) return;
        return post("/notices/push/unsubscribe", { endpoint: sub.endpoint }).then(function () { return sub.unsubscribe(); });
      }).then(function () { showOn(false); }, function (e) {
        off.disabled = false;
        say(e && e.message ? e.message : String(e));
      });
  });
})();

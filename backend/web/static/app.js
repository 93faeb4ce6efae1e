// Progressive enhancement only: every page works without this file.
// The library's text filter asks the server as you type, over the whole
// library (the page's one statement with ?q=): 250 ms after the last key,
// the page for the form's values is fetched and its count, views and
// results replace this page's; the URL follows (history.replaceState), so
// reload and back keep the filter. Without this file the form's submit
// does the same by reloading.
(function () {
  var timer, ctl, asked = 0;
  function query(form) {
    var u = new URLSearchParams();
    // Each field with a value, but a select left at its first option
    // (the default): the URL is the one the page's own links make.
    Array.prototype.forEach.call(form.elements, function (e) {
      var v = e.value;
      if (!e.name || e.disabled || ((e.type === "checkbox" || e.type === "radio") && !e.checked)) return;
      if (e.tagName === "SELECT" && e.selectedIndex <= 0) return;
      if (e.name === "q") v = v.trim();
      if (v !== "") u.append(e.name, v);
    });
    var s = u.toString();
    return "/" + (s ? "?" + s : "");
  }
  function refresh(form) {
    var url = query(form), mine = ++asked;
    if (ctl) ctl.abort();
    ctl = window.AbortController ? new AbortController() : null;
    fetch(url, { credentials: "same-origin", signal: ctl ? ctl.signal : undefined, headers: { Accept: "text/html" } })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) {
        if (mine !== asked) return;
        var doc = new DOMParser().parseFromString(html, "text/html");
        var count = document.getElementById("count"), got = doc.getElementById("count");
        if (!got || !doc.getElementById("results")) return;
        if (count) count.innerHTML = got.innerHTML;
        ["views", "results"].forEach(function (id) {
          var a = document.getElementById(id), b = doc.getElementById(id);
          if (a && b) a.replaceWith(document.importNode(b, true));
        });
        history.replaceState(null, "", url);
      })
      .catch(function () {});
  }
  document.addEventListener("input", function (e) {
    var f = e.target.form;
    if (e.target.id !== "q" || !f || !window.fetch || !window.DOMParser || !document.getElementById("results")) return;
    clearTimeout(timer);
    timer = setTimeout(function () { refresh(f); }, 250);
  });
})();
// A "Copy" button copies the text of the field its data-copy names.
document.addEventListener("click", function (e) {
  var id = e.target.dataset && e.target.dataset.copy; if (!id) return;
  var f = document.getElementById(id); if (!f || !navigator.clipboard) return;
  navigator.clipboard.writeText(f.value).then(function () { e.target.textContent = "Copied"; });
});
// The library's keys: / filter, j and k move, o opens the Series page,
// c continues on the Site, m marks read, ? shows the help. Updates
// (ul.updates, one list a day) takes the same keys over its rows.
(function () {
  var LISTS = "ul.library, ul.updates", ITEMS = "ul.library li.item, ul.updates li.item";
  function cards() {
    return Array.prototype.filter.call(document.querySelectorAll(ITEMS), function (li) { return !li.hidden; });
  }
  function current() { return document.querySelector("ul.library li.item.selected, ul.updates li.item.selected"); }
  function select(li) {
    var old = current(); if (old) old.classList.remove("selected");
    if (!li) return;
    li.classList.add("selected");
    var a = li.querySelector("a.open"); if (a) a.focus({ preventScroll: true });
    li.scrollIntoView({ block: "nearest" });
  }
  function move(step) {
    var list = cards(); if (!list.length) return;
    var i = list.indexOf(current());
    if (i < 0) { var f = document.activeElement && document.activeElement.closest && document.activeElement.closest("li.item"); i = list.indexOf(f); }
    select(list[Math.min(Math.max(i < 0 && step < 0 ? 0 : i + step, 0), list.length - 1)]);
  }
  function follow(sel) {
    var li = current(), a = li && li.querySelector(sel);
    if (!a || a.getAttribute("href") === "#") return false;
    window.location.href = a.href;
    return true;
  }
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || !document.querySelector(LISTS)) return;
    var t = e.target, tag = t && t.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (t && t.isContentEditable)) {
      if (e.key === "Escape" && t.id === "q") t.blur();
      return;
    }
    var help = document.getElementById("keyhelp");
    switch (e.key) {
      case "/": var q = document.getElementById("q"); if (q) { e.preventDefault(); q.focus(); q.select(); } break;
      case "j": move(1); break;
      case "k": move(-1); break;
      case "o": follow("a.open"); break;
      case "c": if (!follow("a.continue")) follow(".meta a"); break;
      case "m":
        var li = current(), b = li && li.querySelector('button[formaction$="/read"], form[action$="/read"] button.mark');
        if (b) b.click();
        break;
      case "?": if (help && help.showModal && !help.open) { e.preventDefault(); help.showModal(); } break;
      default: return;
    }
  });
  // Hash navigation and focus keep the selection where the Reader is.
  document.addEventListener("focusin", function (e) {
    var li = e.target.closest && e.target.closest(ITEMS);
    if (li && li !== current()) { var old = current(); if (old) old.classList.remove("selected"); li.classList.add("selected"); }
  });
})();
// The select toolbar (the library's form "acts"): CSS shows it while a
// card's box is ticked; this counts them (and shows it where :has is not
// known).
document.addEventListener("change", function (e) {
  if (e.target.name !== "pick") return;
  var n = document.querySelectorAll('input[name="pick"]:checked').length;
  var bar = document.querySelector(".bulk-bar"), c = document.getElementById("picked");
  if (bar) bar.classList.toggle("on", n > 0);
  if (c) c.textContent = n + " selected:";
});
// An act returns to the page it came from (its "back" field: page, filter,
// sort, page number); the scroll position is kept here, for that page only.
document.addEventListener("submit", function (e) {
  var b = e.target.querySelector && e.target.querySelector('input[name="back"]');
  if (!b) return;
  try { sessionStorage.setItem("mb-scroll", JSON.stringify({ back: b.value, y: window.scrollY })); } catch (x) { /* storage off */ }
});
(function () {
  var s = null;
  try { s = JSON.parse(sessionStorage.getItem("mb-scroll") || "null"); sessionStorage.removeItem("mb-scroll"); } catch (x) { return; }
  if (s && s.back === location.pathname + location.search && s.y > 0) window.scrollTo(0, s.y);
})();
// The browser's time zone, for the card's days ("around Thu", "since 21
// Nov"): the server knows no Reader's zone, so every page after this one
// counts days in this one (backend/web/zone.go); without it, UTC.
(function () {
  try {
    var tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!tz || !/^[A-Za-z0-9_+\/-]{1,100}$/.test(tz)) return;
    if (document.cookie.split("; ").indexOf("tz=" + tz) !== -1) return;
    document.cookie = "tz=" + tz + "; path=/; max-age=31536000; samesite=lax" + (location.protocol === "https:" ? "; secure" : "");
  } catch (e) { /* no Intl: UTC days */ }
})();

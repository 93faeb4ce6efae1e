// Progressive enhancement only: every page works without this file.
// The text filter narrows the library page as you type (the form still
// works without this, by reloading with ?q=).
document.addEventListener("input", function (e) {
  if (e.target.id !== "q") return;
  var q = e.target.value.trim().toLowerCase(), shown = 0;
  document.querySelectorAll("li.item").forEach(function (li) {
    var hit = li.dataset.key.indexOf(q) !== -1;
    li.hidden = !hit; if (hit) shown++;
  });
  var c = document.getElementById("count"); if (c) c.textContent = shown + " shown on this page";
});
// A "Copy" button copies the text of the field its data-copy names.
document.addEventListener("click", function (e) {
  var id = e.target.dataset && e.target.dataset.copy; if (!id) return;
  var f = document.getElementById(id); if (!f || !navigator.clipboard) return;
  navigator.clipboard.writeText(f.value).then(function () { e.target.textContent = "Copied"; });
});
// The library's keys: / filter, j and k move, o opens the Series page,
// c continues on the Site, m marks read, ? shows the help.
(function () {
  function cards() {
    return Array.prototype.filter.call(document.querySelectorAll("ul.library li.item"), function (li) { return !li.hidden; });
  }
  function current() { return document.querySelector("ul.library li.item.selected"); }
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
    if (e.ctrlKey || e.metaKey || e.altKey || !document.querySelector("ul.library")) return;
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
        var li = current(), f = li && li.querySelector('form[action$="/read"]');
        if (f) { if (f.requestSubmit) f.requestSubmit(); else f.submit(); }
        break;
      case "?": if (help && help.showModal && !help.open) { e.preventDefault(); help.showModal(); } break;
      default: return;
    }
  });
  // Hash navigation and focus keep the selection where the Reader is.
  document.addEventListener("focusin", function (e) {
    var li = e.target.closest && e.target.closest("ul.library li.item");
    if (li && li !== current()) { var old = current(); if (old) old.classList.remove("selected"); li.classList.add("selected"); }
  });
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
